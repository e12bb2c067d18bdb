# frozen_string_literal: true

require 'digest'

# FileStore#move as every store does it (issue #30; README "read_only: and
# move_file"). Include with a `store` let.
RSpec.shared_examples 'a store that moves files' do
  it 'moves a file to its new path, making the folders it needs, and returns it there' do
    written = store.write('draft.md', "# Draft\n")
    moved = store.move('draft.md', 'notes/2026/final.md')
    expect(moved).to be_a(RubyLLM::StoredFile)
    expect(moved).to have_attributes(path: 'notes/2026/final.md', byte_size: 8, digest: written.digest,
                                     content_type: 'text/markdown')
    expect(store.list.map(&:path)).to eq(['notes/2026/final.md'])
    expect(store['draft.md']).to be_nil
    expect(store.read('notes/2026/final.md')).to eq("# Draft\n")
  end

  it 'moves a folder with everything in it, returning the moved files sorted by path' do
    store.write('reports/q3.md', 'q3')
    store.write('reports/2025/q4.md', 'q4')
    store.write('reportsX.txt', 'not in the folder')
    moved = store.move('reports', 'archive/reports')
    expect(moved.map(&:path)).to eq(%w[archive/reports/2025/q4.md archive/reports/q3.md])
    expect(store.list.map(&:path)).to eq(%w[archive/reports/2025/q4.md archive/reports/q3.md reportsX.txt])
    expect(store.read('archive/reports/2025/q4.md')).to eq('q4')
  end

  it 'never overwrites: a file or a folder at the new path refuses the move with FileExistsError' do
    store.write('a.md', 'a')
    store.write('b.md', 'b')
    store.write('folder/c.md', 'c')
    [%w[a.md b.md], %w[a.md folder], %w[folder b.md], %w[b.md folder/c.md]].each do |from, to|
      expect { store.move(from, to) }.to raise_error(RubyLLM::FileExistsError) { |error|
        expect(error.path).to eq(to)
        expect(error.message).to eq("#{to} already exists, and a move never overwrites: choose another " \
                                    "new_path, or delete #{to} first if you mean to replace it.")
      }
    end
    expect(store.list.map { |file| [file.path, store.read(file.path)] })
      .to eq([%w[a.md a], %w[b.md b], %w[folder/c.md c]])
  end

  it 'raises FileNotFoundError when nothing is at the path' do
    expect do
      store.move('missing.md', 'other.md')
    end.to raise_error(RubyLLM::FileNotFoundError, 'missing.md does not exist')
  end

  it 'refuses bad paths, the same path, a folder into itself and a file on the way with ArgumentError' do
    store.write('folder/a.md', 'a')
    store.write('file.md', 'f')
    expect { store.move('folder', 'folder/inner') }.to raise_error(ArgumentError, /cannot move into itself/)
    expect { store.move('folder/a.md', 'folder/a.md') }.to raise_error(ArgumentError, /the same/)
    expect { store.move('folder/a.md', '../a.md') }.to raise_error(ArgumentError)
    expect { store.move('folder/a.md', 'file.md/a.md') }.to raise_error(ArgumentError)
    expect(store.list.map(&:path)).to eq(%w[file.md folder/a.md])
    store.move('folder', 'folderX') # a name that starts like it is not inside it
    expect(store.list.map(&:path)).to eq(%w[file.md folderX/a.md])
  end

  it 'moves the read digest with the file, so an edit right after needs no new read' do
    file = store.write('notes/plan.md', 'plan')
    store.record_read('notes/plan.md', file.digest)
    store.move('notes', 'plans')
    expect(store.read_digest('plans/plan.md')).to eq(file.digest)
    expect(store.read_digest('notes/plan.md')).to be_nil
  end

  it 'gives the content type of the new name where the old name gave it' do
    store.write('table.txt', "a,b\n")
    expect(store.move('table.txt', 'table.csv').content_type).to eq('text/csv')
  end

  # One rule on every store (FileStores::Native::CopyMove.moved_content_type):
  # a text type given to write (a browser's text/plain for notes.md) gives way
  # to the new name's, as a type the old name gave does; a folder on disk
  # keeps no given type at all, and comes to the same.
  it "gives a text file the new name's text type, whatever type write was given" do
    store.write('a.md', "a,b\n", content_type: 'text/plain')
    expect(store.move('a.md', 'b.csv').content_type).to eq('text/csv')
    expect(store['b.csv'].content_type).to eq('text/csv')
  end

  it 'announces the moved files as writes, at their new paths (after_file_write)' do
    store.write('a/x.md', 'x')
    store.write('a/y.md', 'y')
    _, written = RubyLLM::FileStores::Native::WriteEvents.listen(store) { store.move('a', 'b') }
    expect(written.map(&:path)).to contain_exactly('b/x.md', 'b/y.md')
  end
end

# A store made with read_only: true. Include with `store` (read-only) and
# `writer` (a writable store over the same files, to fill them) lets.
RSpec.shared_examples 'a read-only store' do
  let(:message) { 'handbook/policy.md is read-only. Write your own copy elsewhere, such as notes/policy.md.' }

  before { writer.write('handbook/policy.md', "# Policy\n") }

  it 'says so with read_only?' do
    expect(store.read_only?).to be(true)
    expect(writer.read_only?).to be(false)
  end

  it 'reads, lists and searches as any store' do
    expect(store.read('handbook/policy.md')).to eq("# Policy\n")
    expect(store.list.map(&:path)).to eq(['handbook/policy.md'])
    expect(store.text('handbook/policy.md')).to eq("# Policy\n")
    expect(store.search('Policy')).to include('handbook/policy.md')
  end

  it 'refuses every change with ReadOnlyError, whose message says what to do, and changes nothing' do
    changes = {
      write: -> { store.write('handbook/policy.md', 'changed') },
      write_new: -> { store.write('handbook/new.md', 'new') },
      delete: -> { store.delete('handbook/policy.md') },
      delete_folder: -> { store.delete_folder('handbook') },
      move: -> { store.move('handbook/policy.md', 'handbook/renamed.md') }
    }
    changes.each do |name, change|
      expect(&change).to raise_error(RubyLLM::FileStore::ReadOnlyError) { |error|
        expect(error).to be_a(RubyLLM::Error)
        expect(error.path).to start_with('handbook'), name.to_s
      }
    end
    expect { store.write('handbook/policy.md', 'x') }.to raise_error(RubyLLM::FileStore::ReadOnlyError, message)
    expect(writer.list.map(&:path)).to eq(['handbook/policy.md'])
    expect(writer.read('handbook/policy.md')).to eq("# Policy\n")
  end

  it 'saves nothing with write_many, naming every file unsaved with the message' do
    saved, unsaved, error = store.write_many(%w[handbook/policy.md notes/a.md]) { 'bytes' }
    expect(saved).to eq([])
    expect(unsaved).to eq(%w[handbook/policy.md notes/a.md])
    expect(error).to eq(message)
    expect(writer.list.map(&:path)).to eq(['handbook/policy.md'])
  end

  it 'answers the write tools with the message, as { error: }, per file' do
    tools = RubyLLM::FileStore::Tools.for(store, tools: %i[read write edit delete move]).to_h { |t| [t.name, t] }
    tools.fetch('read_file').call('path' => 'handbook/policy.md')
    expect(tools.fetch('write_file').call('path' => 'handbook/policy.md', 'content' => 'x')).to eq(error: message)
    expect(tools.fetch('edit_file').call('path' => 'handbook/policy.md', 'old_text' => 'Policy',
                                         'new_text' => 'Rules')).to eq(error: message)
    expect(tools.fetch('delete_file').call('path' => 'handbook/policy.md')).to eq(error: message)
    expect(tools.fetch('move_file').call('path' => 'handbook/policy.md', 'new_path' => 'x.md')).to eq(error: message)
    expect(writer.read('handbook/policy.md')).to eq("# Policy\n")
  end
end
