# frozen_string_literal: true

require 'timeout'
require_relative 'guarantee_helpers'

# Guarantee: edit_file cannot stall the process. One call takes at most
# MAX_EDITS (100) edits, each at most one pass over the content, and the
# engine checks for cancel before each edit and between the matches of one,
# so Timeout and Thread#kill stop a call on a large file promptly, leaving
# the file as it was.
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

  def seconds
    started = Process.clock_gettime(Process::CLOCK_MONOTONIC)
    yield
    Process.clock_gettime(Process::CLOCK_MONOTONIC) - started
  end
end
