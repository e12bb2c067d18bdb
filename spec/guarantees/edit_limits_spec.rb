# frozen_string_literal: true

require 'timeout'
require_relative 'guarantee_helpers'

# Guarantee: edit_file cannot stall the process. One call takes at most
# MAX_EDITS (100) edits, each at most one pass over the content, and the
# engine checks for cancel before each edit and between the matches of one,
# so Timeout and Thread#kill stop a call on a large file promptly, leaving
# the file as it was. What one call makes is capped in all, not only per
# file: MAX_EDIT_CALL_RESULT (512 MB) over all its files.
RSpec.describe 'Guarantee: edit_file is capped and cancellable', :native do
  around do |example|
    Dir.mktmpdir do |dir|
      @dir = dir
      example.run
    end
  end

  let(:store) { RubyLLM::NativeDir.new(@dir) }
  let(:edit_file) { RubyLLM::FileStore::Tools.for(store).find { |t| t.name == 'edit_file' } }
  let(:markers) { Array.new(100) { |i| format('<marker %03d>', i) } }

  # A file of +megabytes+ MB with the 100 markers spread through it, read.
  def big_file(megabytes)
    filler = "#{'x' * 1023}\n" * (megabytes * 1024 / markers.size)
    store.write('big.txt', markers.map { |m| "#{m}\n#{filler}" }.join)
    store.record_read('big.txt', store['big.txt'].digest)
  end

  def edits = markers.map { |m| { 'old_text' => m, 'new_text' => m.upcase } }

  it 'refuses more than 100 edits in one call, saying so' do
    store.write('a.txt', "a\n")
    store.record_read('a.txt', store['a.txt'].digest)
    many = Array.new(101) { { 'old_text' => 'a', 'new_text' => 'b', 'replace_all' => true } }
    expect(edit_file.call({ 'path' => 'a.txt', 'edits' => many }))
      .to eq(error: 'edits holds 101 edits; one call takes at most 100.')
    expect(RubyLLM::FileStores::Native::MAX_EDITS).to eq(100)
    expect { RubyLLM::FileStores::Native.apply_edits('a', [{ old_text: 'a', new_text: 'b', replace_all: true }] * 101) }
      .to raise_error(ArgumentError, /over the limit of 100/)
  end

  it 'stops 100 edits on a 16 MB file at a Timeout long before they would end, changing nothing' do
    big_file(16)
    content = File.binread(File.join(@dir, 'big.txt'))
    changes = markers.map { |m| { old_text: m.b, new_text: m.upcase.b, replace_all: false } }
    whole = seconds { RubyLLM::FileStores::Native.apply_edits(content, changes) }

    # Timeout (Thread#raise) and Thread#kill reach native work the same way.
    stopped = seconds do
      expect { Timeout.timeout(whole / 10) { RubyLLM::FileStores::Native.apply_edits(content, changes) } }
        .to raise_error(Timeout::Error)
    end
    expect(stopped).to be < whole / 3, "stopped after #{stopped.round(2)} s; the edits take #{whole.round(2)} s"

    expect { Timeout.timeout(whole / 10) { edit_file.call({ 'path' => 'big.txt', 'edits' => edits }) } }
      .to raise_error(Timeout::Error)
    expect(File.binread(File.join(@dir, 'big.txt')) == content).to be(true)
  end

  it 'refuses a call whose files would grow past 512 MB together, naming the cap, in bounded memory' do
    # The old build held every file's new content: 8 files grown to 200 MB
    # each were all written, peaking at 1.74 GB (20 raised NoMemoryError).
    outcome = GuaranteeHelpers.run_script('edit_total.rb', 8, 200)
    expect(outcome[:status]).to be_success, outcome[:output][-2000..] || outcome[:output]
    expect(outcome[:result]).to eq(
      error: "Edit 3: f2.txt would grow to 199 MB, and with the files before it this call's new contents would " \
             'pass the 512 MB one edit_file call may make (112 MB were left); nothing was changed. ' \
             'Edit fewer or smaller files per call.'
    )
    expect(outcome[:sizes]).to eq([1000] * 8)
    expect(outcome[:peak_mb]).to be < 900
    expect(RubyLLM::FileStores::Native::MAX_EDIT_CALL_RESULT).to eq(512 << 20)
  end

  it 'still edits several files in one call within the total' do
    store.write('a.txt', "a\n")
    store.write('b.txt', "b\n")
    %w[a.txt b.txt].each { |path| store.record_read(path, store[path].digest) }
    result = edit_file.call({ 'edits' => [{ 'path' => 'a.txt', 'old_text' => 'a', 'new_text' => 'A' },
                                          { 'path' => 'b.txt', 'old_text' => 'b', 'new_text' => 'B' }] })
    expect(result).to eq('Edited a.txt (1 replacement), b.txt (1 replacement).')
    expect([store.read('a.txt'), store.read('b.txt')]).to eq(%W[A\n B\n])
  end

  def seconds
    started = Process.clock_gettime(Process::CLOCK_MONOTONIC)
    yield
    Process.clock_gettime(Process::CLOCK_MONOTONIC) - started
  end
end
