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

# The history of a store that keeps files for owners (Memory, Active
# Storage): an owner's view sees the versions of every file in it, its
# owner's and the shared ones, and never another owner's; its changes_since
# and rewind are of its owner's files, the only ones it can change, from what
# the view showed (a shared file the owner changed was :changed). Include
# with a `store` made with history (no owner) and two owners, `first_owner`
# and `second_owner`.
RSpec.shared_examples 'a store with history for owners' do
  def contents(view) = view.list.to_h { |file| [file.path, view.read(file.path)] }
  def sha(bytes) = Digest::SHA256.hexdigest(bytes)

  it "shows an owner's view the versions of every file in it, its own and the shared ones, and no other owner's" do
    alice = store.for_owner(first_owner)
    bob = store.for_owner(second_owner)
    store.write('shared.md', "shared one\n")
    store.write('shared.md', "shared two\n")
    alice.write('mine.md', 'alice')
    bob.write('mine.md', 'bob')
    bob.write('shared.md', "bob's copy\n")
    read = ->(view, path) { view.versions(path).map { |version| view.read_version(version) } }
    expect(read.call(alice, 'shared.md')).to eq(["shared two\n", "shared one\n"])
    expect(read.call(alice, 'mine.md')).to eq(['alice'])
    expect(read.call(bob, 'shared.md')).to eq(["bob's copy\n", "shared two\n", "shared one\n"])
    expect(read.call(store, 'shared.md')).to eq(["shared two\n", "shared one\n"])
    expect(store.versions('mine.md')).to eq([])
    bobs = bob.versions('mine.md').first
    [alice, store].each do |view|
      expect { view.read_version(bobs) }.to raise_error(RubyLLM::FileNotFoundError, /no longer kept/)
      expect { view.restore(bobs) }.to raise_error(RubyLLM::FileNotFoundError)
      expect { view.diff(bobs) }.to raise_error(RubyLLM::FileNotFoundError)
    end
    expect(contents(alice)).to eq('mine.md' => 'alice', 'shared.md' => "shared two\n")
  end

  it "restores a shared version in an owner's view as the owner's copy, leaving the shared file to the others" do
    alice = store.for_owner(first_owner)
    store.write('plan.md', "one\n")
    store.write('plan.md', "two\n")
    first = alice.versions('plan.md').last
    expect(alice.diff(first)).to eq("--- a/plan.md\n+++ b/plan.md\n@@ -1 +1 @@\n-one\n+two\n")
    alice.restore(first)
    expect([alice.read('plan.md'), store.read('plan.md')]).to eq(%W[one\n two\n])
    expect(alice.versions('plan.md').map(&:change)).to eq(%i[restored changed created])
    expect(store.versions('plan.md').map(&:change)).to eq(%i[changed created])
  end

  it "restores in an owner's view the shared file's version of now by deleting the owner's copy: the app's " \
     'later changes show through; an older one stays a copy' do
    alice = store.for_owner(first_owner)
    store.write('plan.md', "one\n")
    store.write('plan.md', "two\n")
    alice.restore(alice.versions('plan.md').last)
    store.write('plan.md', "three\n")
    expect(alice.read('plan.md')).to eq("one\n") # a copy keeps the bytes restore named
    alice.restore(store.versions('plan.md').first)
    store.write('plan.md', "four\n")
    expect(alice.read('plan.md')).to eq("four\n")
    expect(alice.shared_file?('plan.md')).to be(true)
    expect(alice.versions('plan.md').map { |version| [version.change, alice.read_version(version)] })
      .to eq([[:changed, "four\n"], [:restored, "three\n"], [:restored, "one\n"], [:changed, "two\n"],
              [:created, "one\n"]])
  end

  it "rewinds an owner's view to what it showed: its copy of a shared file back to the shared bytes; others' stay" do
    alice = store.for_owner(first_owner)
    bob = store.for_owner(second_owner)
    store.write('shared.md', "shared\n")
    checkpoint = alice.checkpoint
    alice.write('shared.md', "alice's\n")
    alice.write('mine.md', 'mine')
    bob.write('bob.md', 'bob')
    store.write('app.md', 'app')
    expect(alice.changes_since(checkpoint).map { |change| [change.path, change.change] })
      .to eq([['mine.md', :created], ['shared.md', :changed]])
    change = alice.changes_since(checkpoint).last
    expect(alice.diff(change.before, change.after)).to end_with("-shared\n+alice's\n")
    alice.rewind(checkpoint)
    expect(contents(alice)).to eq('app.md' => 'app', 'shared.md' => "shared\n")
    expect(contents(bob)).to eq('app.md' => 'app', 'bob.md' => 'bob', 'shared.md' => "shared\n")
    expect(alice.versions('shared.md').map(&:change)).to eq(%i[restored changed created])
    expect(alice.changes_since(checkpoint)).to eq([])
  end

  it "rewinds an owner's view to before its first change of a shared file by deleting its copy: the shared " \
     "file shows through, the app's changes to it too" do
    alice = store.for_owner(first_owner)
    store.write('shared.md', "shared\n")
    before = alice.checkpoint
    alice.write('shared.md', "alice's\n")
    had_copy = alice.checkpoint
    store.write('shared.md', "the app's\n")
    alice.rewind(before)
    expect(alice.read('shared.md')).to eq("the app's\n") # what the shared file holds now, not then
    store.write('shared.md', "the app's again\n")
    expect(alice.read('shared.md')).to eq("the app's again\n")
    expect(alice.shared_file?('shared.md')).to be(true) # alice has no copy of her own
    expect(alice.versions('shared.md').map { |version| [version.change, alice.read_version(version)] })
      .to eq([[:changed, "the app's again\n"], [:restored, "the app's\n"], [:changed, "alice's\n"],
              [:created, "shared\n"]])
    expect(alice.changes_since(before)).to eq([])
    alice.rewind(had_copy) # she had a copy then: it comes back, and stays hers
    store.write('shared.md', "the app's third\n")
    expect([alice.read('shared.md'), store.read('shared.md')]).to eq(["alice's\n", "the app's third\n"])
    expect(alice.versions('shared.md').first.digest).to eq(sha(alice.read('shared.md')))
  end
end
