# frozen_string_literal: true

require 'digest'

# The history every store keeps when made with it (README, "History"):
# versions, read_version, restore, diff, checkpoints, changes_since and
# rewind. Include with a `store` let made with history (keep: 50), and
# `without_history`, a store of the same kind made without.
RSpec.shared_examples 'a store with history' do
  def sha(bytes) = Digest::SHA256.hexdigest(bytes)

  it 'is off by default: every history method says how to turn it on' do
    expect(without_history.history?).to be(false)
    expect { without_history.versions('a.md') }.to raise_error(RubyLLM::FileStore::HistoryError, /history:/)
    expect { without_history.checkpoint }.to raise_error(RubyLLM::FileStore::HistoryError)
    without_history.write('a.md', 'a')
    expect(store.history?).to be(true)
  end

  it 'keeps every version, newest first, with what made it; a deleted file keeps its versions' do
    store.write('notes.md', "one\n")
    store.write('notes.md', "two\n")
    store.delete('notes.md')
    versions = store.versions('notes.md')
    expect(versions.map(&:change)).to eq(%i[deleted changed created])
    expect(versions.map(&:digest)).to eq([nil, sha("two\n"), sha("one\n")])
    expect(versions.map(&:byte_size)).to eq([0, 4, 4])
    expect(versions.map(&:by)).to eq(%i[app app app])
    expect(versions.first.id).to be > versions.last.id
    expect(versions.last).to have_attributes(path: 'notes.md', content_type: 'text/markdown')
    expect(versions.last.created_at).to be_a(Time)
    expect(store.read_version(versions.last)).to eq("one\n")
    expect { store.read_version(versions.first) }.to raise_error(RubyLLM::FileNotFoundError, /no bytes/)
  end

  it 'records what made a change: the tool, run_code, the app' do
    RubyLLM::FileStores::Native::History.acting('write_file') { store.write('a.md', 'model') }
    RubyLLM::FileStores::Native::History.acting(:code) { store.write('a.md', 'code') }
    store.write('a.md', 'app')
    expect(store.versions('a.md').map(&:by)).to eq([:app, :code, 'write_file'])
  end

  it 'records nothing for a write of the same bytes, and one version for each real change' do
    store.write('a.md', 'same')
    store.write('a.md', 'same')
    expect(store.versions('a.md').size).to eq(1)
  end

  it 'records a move as moved_out and moved_in, a folder of files once each' do
    store.write('drafts/a.md', 'a')
    store.write('drafts/b.md', 'b')
    store.move('drafts', 'final')
    expect(store.versions('drafts/a.md').first.change).to eq(:moved_out)
    expect(store.versions('final/b.md').map(&:change)).to eq([:moved_in])
    expect(store.versions('final/b.md').first.digest).to eq(sha('b'))
    store.delete_folder('final')
    expect(store.versions('final/a.md').map(&:change)).to eq(%i[deleted moved_in])
  end

  it 'records write_many once per file saved' do
    saved, = store.write_many(%w[x.txt y.txt]) { |path| "#{path}\n" }
    expect(saved.size).to eq(2)
    expect(store.versions('x.txt').map(&:change)).to eq([:created])
  end

  it 'restores a version as a new version, and brings a deleted file back' do
    store.write('a.md', 'first')
    store.write('a.md', 'second')
    store.delete('a.md')
    first = store.versions('a.md').last
    restored = store.restore(first)
    expect(restored.digest).to eq(sha('first'))
    expect(store.read('a.md')).to eq('first')
    expect(store.versions('a.md').first).to have_attributes(change: :restored, digest: sha('first'))
  end

  it 'diffs two versions, or a version against the file now' do
    store.write('a.md', "one\ntwo\nthree\n")
    store.write('a.md', "one\n2\nthree\n")
    newer, older = store.versions('a.md')
    expect(store.diff(older, newer)).to eq(
      "--- a/a.md\n+++ b/a.md\n@@ -1,3 +1,3 @@\n one\n-two\n+2\n three\n"
    )
    expect(store.diff(newer)).to eq('')
    store.write('a.md', "one\n2\nthree\nfour\n")
    expect(store.diff(newer)).to include("+four\n")
    store.write('pic.png', "\x89PNG\r\n\x1A\n#{"\0" * 8}".b)
    expect { store.diff(store.versions('pic.png').first) }.to raise_error(ArgumentError, /not text/)
  end

  it 'says what changed since a checkpoint, with the versions before and after' do
    store.write('kept.md', 'kept')
    store.write('changed.md', 'v1')
    store.write('deleted.md', 'd')
    store.write('moved.md', 'm')
    checkpoint = store.checkpoint
    expect(checkpoint).to be_a(RubyLLM::FileStore::Checkpoint)
    store.write('changed.md', 'v2')
    store.delete('deleted.md')
    store.move('moved.md', 'there/moved.md')
    store.write('created.md', 'new')
    store.write('gone.md', 'briefly')
    store.delete('gone.md')
    changes = store.changes_since(checkpoint)
    expect(changes.map { |change| [change.path, change.change] }).to eq(
      [%w[changed.md changed], %w[created.md created], %w[deleted.md deleted], %w[moved.md moved_out],
       %w[there/moved.md moved_in]].map { |path, change| [path, change.to_sym] }
    )
    changed = changes.first
    expect([changed.before.digest, changed.after.digest]).to eq([sha('v1'), sha('v2')])
    expect(changes[1].before).to be_nil
  end

  it 'rewinds every file to a checkpoint and returns what it undid' do
    store.write('kept.md', 'kept')
    store.write('changed.md', 'v1')
    store.write('deleted.md', 'd')
    store.write('moved.md', 'm')
    checkpoint = store.checkpoint
    before = store.list.to_h { |file| [file.path, store.read(file.path)] }
    store.write('changed.md', 'v2')
    store.delete('deleted.md')
    store.move('moved.md', 'there/moved.md')
    store.write('created/deep.md', 'new')
    undone = store.rewind(checkpoint)
    expect(undone.map(&:path)).to eq(%w[changed.md created/deep.md deleted.md moved.md there/moved.md])
    expect(store.list.to_h { |file| [file.path, store.read(file.path)] }).to eq(before)
    expect(store.versions('changed.md').first).to have_attributes(change: :restored, digest: sha('v1'))
    expect(store.changes_since(checkpoint)).to eq([])
  end

  it 'rewinds a file that was there before the history first saw it change' do
    store.write('old.md', 'old')
    checkpoint = store.checkpoint
    store.write('old.md', 'new')
    store.rewind(checkpoint)
    expect(store.read('old.md')).to eq('old')
  end

  it 'rewinds all or nothing: a version no longer kept stops it before anything changes' do
    small = keep_two
    small.write('a.md', 'a0')
    small.write('b.md', 'b0')
    checkpoint = small.checkpoint
    small.write('b.md', 'b1')
    3.times { |n| small.write('a.md', "a#{n + 1}") }
    expect(small.versions('a.md').size).to eq(2)
    expect { small.rewind(checkpoint) }.to raise_error(RubyLLM::FileStore::HistoryError, /no longer kept/)
    expect(small.read('b.md')).to eq('b1')
    expect(small.read('a.md')).to eq('a3')
  end

  it 'keeps keep: versions per file, never the newest, and forgets their bytes' do
    small = keep_two
    5.times { |n| small.write('a.md', "v#{n}") }
    versions = small.versions('a.md')
    expect(versions.map { |version| small.read_version(version) }).to eq(%w[v4 v3])
  end

  it 'keeps versions for keep_for: only, never the newest' do
    short = keep_for_a_minute
    short.write('a.md', 'v0')
    short.write('a.md', 'v1')
    expect(short.versions('a.md').size).to eq(2)
    later = Time.now + 120
    allow(Time).to receive(:now).and_return(later)
    short.write('a.md', 'v2')
    expect(short.versions('a.md').map { |version| short.read_version(version) }).to eq(%w[v2])
  end

  it 'refuses a checkpoint that is not one' do
    expect { store.rewind(3) }.to raise_error(ArgumentError, /Checkpoint/)
    expect { store.read_version('a.md') }.to raise_error(ArgumentError, /FileVersion/)
  end

  it 'gives two writers two versions in their order' do
    threads = Array.new(4) do |n|
      Thread.new { 10.times { |i| store.write('shared.md', "#{n}-#{i}") } }
    end
    threads.each(&:join)
    versions = store.versions('shared.md')
    expect(versions.size).to eq(40)
    expect(versions.map(&:id)).to eq(versions.map(&:id).sort.reverse)
    expect(versions.first.digest).to eq(sha(store.read('shared.md')))
  end
end
