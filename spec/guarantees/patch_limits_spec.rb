# frozen_string_literal: true

require 'timeout'
require_relative 'guarantee_helpers'

# Guarantee: apply_patch is capped and cancellable. A patch may be at most
# Native::Patch::MAX_BYTES (8 MB) of text and hold at most MAX_HUNKS (1,000)
# hunks over at most MAX_FILES (1,000) files; each hunk is at most a few
# passes over its file, and the engine checks for cancel between hunks and
# every 4,096 lines of a search, so Timeout stops a call at once, with
# nothing written. The new contents share edit_file's 512 MB cap per call.
RSpec.describe 'Guarantee: apply_patch is capped and cancellable', :native do
  around do |example|
    Dir.mktmpdir do |dir|
      @dir = dir
      example.run
    end
  end

  let(:store) { RubyLLM::NativeDir.new(@dir) }
  let(:apply_patch) { RubyLLM::FileStore::Tools.for(store, tools: %i[read patch]).find { |t| t.name == 'apply_patch' } }

  def read(path) = store.record_read(path, store[path].digest)

  it 'refuses more than 1,000 hunks and more than 8 MB, saying so, and changes nothing' do
    expect(RubyLLM::FileStores::Native::Patch::MAX_HUNKS).to eq(1000)
    expect(RubyLLM::FileStores::Native::Patch::MAX_BYTES).to eq(8 << 20)
    store.write('a.txt', "a\n")
    read('a.txt')
    many = "*** Begin Patch\n*** Update File: a.txt\n#{"@@\n-a\n+b\n" * 1001}*** End Patch\n"
    expect(apply_patch.call('patch' => many)[:error]).to include('more than 1000 hunks; split it over several calls')
    big = "*** Begin Patch\n*** Add File: b.txt\n#{"+#{'x' * 1023}\n" * 8200}*** End Patch\n"
    expect(apply_patch.call('patch' => big)[:error]).to include('over the 8 MB one apply_patch call takes')
    expect(store.read('a.txt')).to eq("a\n")
    expect(store['b.txt']).to be_nil
  end

  it 'stops at a Timeout on a long patch over a large file, writing nothing' do
    # 1,000 hunks at the top of an 8 MB file of 4 M lines: each is checked
    # for a second place through the rest of the file, about 4 G line
    # comparisons in all.
    markers = Array.new(1000) { |i| "marker #{i}" }
    store.write('big.txt', "#{markers.join("\n")}\n#{"x\n" * (4 << 20)}")
    read('big.txt')
    hunks = markers.map { |m| "@@\n-#{m}\n+#{m.upcase}\n" }.join
    before = store['big.txt'].digest
    started = Process.clock_gettime(Process::CLOCK_MONOTONIC)
    expect do
      Timeout.timeout(0.5) do
        apply_patch.call('patch' => "*** Begin Patch\n*** Update File: big.txt\n#{hunks}*** End Patch")
      end
    end.to raise_error(Timeout::Error)
    expect(Process.clock_gettime(Process::CLOCK_MONOTONIC) - started).to be < 3
    expect(store['big.txt'].digest).to eq(before)
  end
end
