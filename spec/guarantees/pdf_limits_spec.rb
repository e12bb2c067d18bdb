# frozen_string_literal: true

require_relative 'guarantee_helpers'

# Guarantee: reading a hostile PDF never crashes the process and stays
# within its memory bounds, even where lopdf, which parses the file, has no
# bound of its own (it recurses into nested arrays and inflates
# cross-reference and object streams whole). Each crafted file is converted
# in its own Ruby (spec/scripts/pdf_limits.rb), in a thread, capped at 3 GB
# of address space and 60 s of CPU, which reports the answer and its peak
# resident memory (VmHWM).
RSpec.describe 'Guarantee: a hostile PDF is refused within bounds', :native do
  def run_case(name, *args) = GuaranteeHelpers.run_case('pdf_limits.rb', name, *args)

  it 'refuses objects nested 100,000 deep instead of overflowing the stack' do
    expect(run_case('deep_objects')[:error]).to match(/deep_objects\.pdf.*nest.*more than 64 deep/)
  end

  it 'refuses a 300 MB file by its size without copying it first' do
    outcome = run_case('oversized')
    expect(outcome[:error]).to match(/oversized\.pdf.*314572816 bytes, more than 268435456/)
    # The file itself is 300 MB; a copy would be 300 more.
    expect(outcome[:peak_mb] - outcome[:built_mb]).to be < 50
  end

  it 'refuses a 512 MB object stream bomb before inflating it (peak under 150 MB)' do
    outcome = run_case('objstm_bomb')
    expect(outcome[:error]).to match(/objstm_bomb\.pdf.*decompresses to more than/)
    expect(outcome[:peak_mb]).to be < 150
  end

  it 'refuses a 512 MB cross-reference stream bomb before inflating it (peak under 150 MB)' do
    outcome = run_case('xref_bomb')
    expect(outcome[:error]).to match(/xref_bomb\.pdf.*decompresses to more than/)
    expect(outcome[:peak_mb]).to be < 150
  end

  it 'refuses objects nested 100,000 deep inside an encrypted object stream' do
    expect(run_case('encrypted_deep_objstm')[:error]).to match(/encrypted_deep_objstm\.pdf.*nest.*more than 64 deep/)
  end

  it 'refuses a 512 MB bomb inside an encrypted object stream before inflating it (peak under 150 MB)' do
    outcome = run_case('encrypted_objstm_bomb')
    expect(outcome[:error]).to match(/encrypted_objstm_bomb\.pdf.*decompresses to more than/)
    expect(outcome[:peak_mb]).to be < 150
  end

  it 'refuses a 512 MB cross-reference stream bomb whose type hides behind a string holding stream and obj' do
    outcome = run_case('xref_bomb_hidden_type')
    expect(outcome[:error]).to match(/xref_bomb_hidden_type\.pdf.*decompresses to more than/)
    expect(outcome[:peak_mb]).to be < 150
  end

  it 'refuses a 512 MB cross-reference stream bomb with no type, found by startxref' do
    outcome = run_case('xref_bomb_untyped')
    expect(outcome[:error]).to match(/xref_bomb_untyped\.pdf.*decompresses to more than/)
    expect(outcome[:peak_mb]).to be < 150
  end

  it 'refuses a 512 MB cross-reference stream bomb whose type is 80 KB before its data' do
    outcome = run_case('xref_bomb_long_dictionary')
    expect(outcome[:error]).to match(/xref_bomb_long_dictionary\.pdf.*decompresses to more than/)
    expect(outcome[:peak_mb]).to be < 150
  end

  it 'answers a file of 300,000 stream keywords at once (within 3 s; the old build took minutes)' do
    outcome = run_case('stream_keywords')
    expect(outcome[:error]).to match(/stream_keywords\.pdf.*broken/)
    expect(outcome[:seconds]).to be < 3
  end

  it 'bounds an encrypted file whose /Encrypt key is written with an escape (/Encr#79pt) as any other' do
    expect(run_case('encrypted_escaped_key_deep')[:error]).to match(/escaped_key_deep\.pdf.*more than 64 deep/)
    outcome = run_case('encrypted_escaped_key_bomb')
    expect(outcome[:error]).to match(/encrypted_escaped_key_bomb\.pdf.*decompresses to more than/)
    expect(outcome[:peak_mb]).to be < 150
  end

  it 'refuses a cross-reference table of 200,000 entries, which lopdf parses in quadratic time (within 3 s)' do
    outcome = run_case('many_objects')
    expect(outcome[:error]).to match(/many_objects\.pdf.*cross-reference table has too many entries/)
    expect(outcome[:seconds]).to be < 3
  end

  it 'stops loading objects, each of which lopdf parses in time growing with the file, at a Timeout (within 3 s)' do
    outcome = run_case('objects_after_padding', 1)
    expect(outcome[:error]).to start_with('Timeout::Error')
    expect(outcome[:seconds]).to be < 3
  end
end
