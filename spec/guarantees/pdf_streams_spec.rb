# frozen_string_literal: true

require_relative 'guarantee_helpers'

# Guarantee: a hostile PDF's content streams and objects are bounded where
# the work happens. Every content-stream token (operands too) counts
# against a budget while it is read, and the cancel flag is checked there;
# every copy of every stream, unfiltered ones and forms drawn again
# included, is charged to the file's decode budget; a page's streams are
# read one after another; the objects lopdf parses are counted before it
# parses them. Each crafted file is converted in its own Ruby
# (spec/scripts/pdf_streams.rb), in a thread, capped at 3 GB of address
# space and 60 s of CPU, which reports the answer, the seconds it took and
# its peak resident memory (VmHWM). The figures in the descriptions are
# what the old build did.
RSpec.describe 'Guarantee: a hostile PDF\'s content streams and objects are bounded', :native do
  def run_case(name, *args) = GuaranteeHelpers.run_case('pdf_streams.rb', name, *args)

  let(:page) { "## Page 1\n\nSome text on the page.\n" }

  it 'reads a page of 30 M operands with no operator in bounded memory (the old build aborted at 2 GB)' do
    outcome = run_case('operands')
    expect(outcome[:result]).to eq(page)
    expect(outcome[:peak_mb]).to be < 400
    expect(outcome[:seconds]).to be < 20
  end

  it 'stops at a Timeout inside a stream of operands listed 15 times (within 1 s of it)' do
    outcome = run_case('operands_listed_15_times', 3)
    expect(outcome[:error]).to start_with('Timeout::Error')
    expect(outcome[:seconds]).to be < 4
    expect(outcome[:peak_mb]).to be < 400
  end

  it 'charges every copy of an unfiltered stream listed 100,000 times (the old build aborted, 6.4 GB asked)' do
    outcome = run_case('unfiltered_listed_100000_times')
    expect(outcome[:error]).to match(/unfiltered_listed_100000_times\.pdf.*in all/)
    expect(outcome[:peak_mb]).to be < 400
    expect(outcome[:seconds]).to be < 30
  end

  it 'charges every run of a form drawn 1,000,000 times (the old build ran past 120 s)' do
    outcome = run_case('form_drawn_1000000_times')
    expect(outcome[:error]).to match(/form_drawn_1000000_times\.pdf.*in all/)
    expect(outcome[:seconds]).to be < 30
  end

  it 'refuses an unused array of 30 M zeros in an object stream before lopdf parses it (the old build aborted)' do
    outcome = run_case('unused_objstm_array')
    expect(outcome[:error]).to match(/unused_objstm_array\.pdf.*would parse into more than/)
    expect(outcome[:peak_mb]).to be < 250
  end

  it 'refuses an unused top-level array of 2 M zeros before lopdf parses it' do
    outcome = run_case('unused_array')
    expect(outcome[:error]).to match(/unused_array\.pdf.*would parse into more than 1048576 values/)
    expect(outcome[:peak_mb]).to be < 150
  end

  it 'stops ASCII85 at the stream limit as it decodes, not after four times the input' do
    outcome = run_case('ascii85_zeros')
    expect(outcome[:error]).to match(/ascii85_zeros\.pdf.*decompresses to more than/)
    expect(outcome[:peak_mb]).to be < 250
  end
end
