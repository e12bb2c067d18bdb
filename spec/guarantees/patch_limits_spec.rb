# frozen_string_literal: true

require 'timeout'
require_relative 'guarantee_helpers'

# Guarantee: apply_patch is capped, bounded in time and cancellable. A patch
# may be at most Native::Patch::MAX_BYTES (8 MB) of text and hold at most
# MAX_HUNKS (1,000) hunks over at most MAX_FILES (1,000) files; finding a hunk
# is linear in its file and its lines (one KMP pass over the file's lines
# per level), the hunks of one call get ApplyPatch::TIMEOUT (10 s)
# before it answers an error, and the engine checks for cancel between hunks
# and every 4,096 steps of a search, so Timeout stops a call at once, with
# nothing written. The new contents share edit_file's 512 MB cap per call.
RSpec.describe 'Guarantee: apply_patch is capped, bounded in time and cancellable', :native do
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

  # The call on a thread of its own, waited for at most +seconds+; nil when
  # it had not answered (then it is killed: the search is cancellable).
  def answer_within(seconds, &)
    thread = Thread.new(&)
    thread.report_on_exception = false
    thread.join(seconds)&.value
  ensure
    thread&.kill&.join
  end

  it 'answers the issue\'s 72 KB hunk over 48,000 lines within its deadline, while the process runs on' do
    # Issue #38: 1,000 lines of "a" made 48,000 by one replace_all edit, then
    # a hunk of 23,999 context lines " a" and a last "-b". Every start matched
    # all but the last line: the per-start search took 61.7 s of one core.
    tools = RubyLLM::FileStore::Tools.for(store, tools: %i[read write edit patch]).to_h { |t| [t.name, t] }
    expect(tools.fetch('write_file').call('path' => 'a.txt', 'content' => "a\n" * 1000)).to start_with('Created')
    expect(tools.fetch('edit_file').call('path' => 'a.txt', 'old_text' => "a\n", 'new_text' => "a\n" * 48,
                                         'replace_all' => true)).to start_with('Edited a.txt')
    before = store['a.txt'].digest
    patch = "*** Begin Patch\n*** Update File: a.txt\n@@\n#{" a\n" * 23_999}-b\n*** End Patch\n"
    expect(patch.bytesize).to be > 72_000
    ticks = 0
    ticker = Thread.new do
      loop do
        ticks += 1
        Thread.pass
      end
    end
    # Within the deadline (10 s) and 5 s more; it takes milliseconds.
    result = answer_within(15) do
      tools.fetch('apply_patch').call('patch' => patch)
    end
    ticker.kill.join
    expect(result).to eq(error: 'Hunk 1 of a.txt does not match: its context and removed lines, from "a", are not ' \
                                'in the file at or after line 1. Read the file again and copy those lines exactly. ' \
                                'Nothing was changed.')
    expect(ticks).to be_positive
    expect(store['a.txt'].digest).to eq(before)
    expect(RubyLLM::FileStore::Tools::ApplyPatch::TIMEOUT).to eq(10)
  end

  it 'answers an error at its deadline on a patch still too slow, saying what to do, writing nothing' do
    # 1,000 hunks, each looked for through 4 M lines to be sure it is in one
    # place: tens of seconds of linear searching, against a deadline of 0.2 s.
    stub_const('RubyLLM::FileStore::Tools::ApplyPatch::TIMEOUT', 0.2)
    markers = Array.new(1000) { |i| "marker #{i}" }
    store.write('big.txt', "#{markers.join("\n")}\n#{"x\n" * (4 << 20)}")
    read('big.txt')
    before = store['big.txt'].digest
    hunks = markers.map { |m| "@@\n-#{m}\n+#{m.upcase}\n" }.join
    result = answer_within(5.2) do
      apply_patch.call('patch' => "*** Begin Patch\n*** Update File: big.txt\n#{hunks}*** End Patch")
    end
    expect(result).to match(error: /\AHunk \d+ of big\.txt: apply_patch ran out of time finding the hunks \(one call /)
    expect(result[:error]).to end_with('may take 0.2 s). Split the patch over several calls, and give each hunk a ' \
                                       'few exact context lines and an @@ line with the class or def above the ' \
                                       'change. Nothing was changed.')
    expect(store['big.txt'].digest).to eq(before)
  end

  it 'stops at a Timeout on a long patch over a large file, writing nothing' do
    # 1,000 hunks at the top of an 8 MB file of 4 M lines: each is checked
    # for a second place through the rest of the file, about 4 G steps of
    # the search in all.
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
