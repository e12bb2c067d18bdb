# frozen_string_literal: true

require_relative 'code_execution_helper'

RSpec.describe RubyLLM::FileStore::CodeExecution, 'staged, on a Memory store' do
  include_context 'with code execution'

  let(:store) { RubyLLM::FileStore::Memory.new }
  let(:runner) { runner_for(store) }

  def tree_code
    <<~PY
      import os
      for root, dirs, files in sorted(os.walk('.')):
          for name in sorted(files):
              print(os.path.join(root, name)[2:])
    PY
  end

  it 'starts in an empty folder with only the files named, a folder name copying all of it' do
    store.write('data/a.csv', "a\n")
    store.write('data/deep/b.csv', "b\n")
    store.write('other.txt', 'o')
    store.write('notes/n.md', 'n')
    expect(python(runner, tree_code).stdout).to eq('')

    result = python(runner, tree_code, files: %w[data notes/n.md])
    expect(result.stdout.lines.map(&:chomp)).to eq(%w[data/a.csv data/deep/b.csv notes/n.md])
    expect(result.created + result.changed).to eq([])
  end

  it 'answers a name with no file as an error the model sees, and runs nothing' do
    store.write('data/a.csv', "a\n")
    answer = runner.tool.call('language' => 'python', 'code' => "open('ran','w').write('x')",
                              'files' => %w[data/a.csv missing.csv nope/])
    expect(answer).to eq(error: 'missing.csv, nope/: no such file or folder in the files. Find the paths with ' \
                                'list_files.')
    expect(store.list.map(&:path)).to eq(['data/a.csv'])
  end

  it 'saves what the code created or changed when it ends; a deleted copy stays in the store' do
    store.write('in/data.csv', "x\n1\n")
    store.write('in/keep.txt', 'keep')
    store.write('in/same.txt', 'same')
    result = python(runner, <<~PY, files: ['in'])
      import os
      open('in/data.csv', 'a').write('2\\n')
      os.makedirs('out/charts')
      open('out/charts/c.svg', 'w').write('<svg/>')
      os.remove('in/keep.txt')
    PY
    expect(result.exit_status).to eq(0)
    expect(result.created).to eq(['out/charts/c.svg'])
    expect(result.changed).to eq(['in/data.csv'])
    expect(result.deleted).to eq([])
    expect(store.read('in/data.csv')).to eq("x\n1\n2\n")
    expect(store.read('in/keep.txt')).to eq('keep')
    expect(store.list.map(&:path)).to eq(%w[in/data.csv in/keep.txt in/same.txt out/charts/c.svg])
    expect(store.find('out/charts/c.svg').content_type).to eq('image/svg+xml')
  end

  it 'marks files read and then changed as changed, and the hooks receive each saved file' do
    store.write('plan.md', "one\n")
    store.record_read('plan.md', store.find('plan.md').digest)
    seen = []
    runner.after_file_write { |file| seen << file }
    result = python(runner, "open('plan.md','a').write('two\\n')\nopen('new.md','w').write('n')", files: ['plan.md'])
    expect(result.changed).to eq(['plan.md'])
    edit_file = RubyLLM::FileStore::Tools.for(store).find { |tool| tool.name == 'edit_file' }
    refusal = edit_file.call('path' => 'plan.md', 'old_text' => 'one', 'new_text' => '1')
    expect(refusal).to eq(error: 'plan.md changed since you read it. Read it again.')
    expect(seen.map(&:path)).to eq(%w[new.md plan.md])
    expect(seen).to all(be_a(RubyLLM::StoredFile))
    expect(seen.find { |f| f.path == 'plan.md' }.digest).to eq(store.find('plan.md').digest)
  end

  it 'on a full store saves what fits and lists the rest under unsaved_files with the store message' do
    full = RubyLLM::FileStore::Memory.new(max_bytes: 1_000)
    result = python(runner_for(full), <<~PY)
      open('a-small.txt', 'w').write('s' * 100)
      open('b-big.bin', 'wb').write(b'b' * 5000)
      open('c-small.txt', 'w').write('c' * 100)
    PY
    expect(result.created).to eq(%w[a-small.txt c-small.txt])
    expect(result.unsaved_files).to eq(['b-big.bin'])
    expect(result.files_error).to start_with(RubyLLM::FileStore::Memory::FULL)
    expect(result.to_h).to include(unsaved_files: ['b-big.bin'], files_error: result.files_error)
    expect(full.list.map(&:path)).to eq(%w[a-small.txt c-small.txt])
  end

  it 'saves nothing a link points at, and says the links were not kept' do
    File.write(File.join(@tmp, 'outside.txt'), 'secret')
    result = python(runner, <<~PY)
      import os
      os.symlink('#{@tmp}/outside.txt', 'link.txt')
      os.symlink('/etc', 'etc')
      open('real.txt', 'w').write('r')
    PY
    expect(result.created).to eq(['real.txt'])
    expect(store.list.map(&:path)).to eq(['real.txt'])
    expect(result.notes.join).to include('link.txt')
  end

  # As a read-only NativeDir's folder is: the code learns at its first
  # write that it cannot write, rather than from unsaved_files afterwards.
  it "binds a read-only store's staged copy read-only: every write fails in the code, and nothing is saved" do
    store.write('data/a.csv', "a\n")
    read_only = store.read_only_view
    result = python(runner_for(read_only), <<~PY, files: %w[data])
      for path in ['data/a.csv', 'out.txt']:
          try:
              open(path, 'a').write('b\\n')
          except OSError as e:
              print(path, e.strerror)
      print(open('data/a.csv').read(), end='')
    PY
    expect(result.stdout).to eq("data/a.csv Read-only file system\nout.txt Read-only file system\na\n")
    expect(result.created + result.changed + result.unsaved_files).to eq([])
    expect(result.files_error).to be_nil
    expect(result.notes).to include(RubyLLM::FileStore::CodeExecution::Report::READ_ONLY)
    expect(store.list.map(&:path)).to eq(['data/a.csv'])
    expect(store.read('data/a.csv')).to eq("a\n")
  end

  it 'without a sandbox lets the copy be written and refuses it when saved back, naming it unsaved' do
    store.write('data/a.csv', "a\n")
    result = python(runner_for(store.read_only_view, sandbox: false),
                    "open('data/a.csv', 'a').write('b\\n')\nopen('out.txt', 'w').write('o')", files: %w[data])
    expect(result.unsaved_files).to eq(%w[out.txt data/a.csv])
    expect(result.files_error).to eq('out.txt is read-only. Write your own copy elsewhere, such as notes/out.txt.')
    expect(result.created + result.changed).to eq([])
    expect(store.read('data/a.csv')).to eq("a\n")
  end

  # The wording is the one a tree's default folder has always had.
  it 'says the files the run left in the folder could not be checked when its sweep fails, output kept' do
    allow(RubyLLM::FileStore::CodeExecution::LongPaths).to receive(:trim).and_raise(RuntimeError, 'boom')
    result = python(runner, "open('a.txt', 'w').write('a')\nprint('ran')")
    expect(result.stdout).to eq("ran\n")
    expect(result.created).to eq([])
    expect(result.notes).to include('The files the run left in the folder could not be checked (boom), so none are ' \
                                    'listed here: find them with list_files.')
  end
end
