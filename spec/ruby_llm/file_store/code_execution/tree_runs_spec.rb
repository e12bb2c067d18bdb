# frozen_string_literal: true

require 'timeout'
require_relative 'code_execution_helper'

# run_code over a tree of stores where the default store's folder has its
# own file or folder at a mount's path (hidden by the mount in the tree's
# listing), or where two stores of the tree are one folder.
RSpec.describe RubyLLM::FileStore::CodeExecution, 'over a tree with hidden or shared folders' do
  include_context 'with code execution'

  let(:chat_dir) { File.join(@tmp, 'chat') }
  let(:chat) { RubyLLM::NativeDir.new(chat_dir) }

  def shell(tree, code, **options)
    runner_for(tree, python: false, ruby: false, shell: true, **options).run(language: 'shell', code:)
  end

  def folder(name, files)
    dir = File.join(@tmp, name)
    files.each do |path, text|
      FileUtils.mkdir_p(File.dirname(File.join(dir, path)))
      File.write(File.join(dir, path), text)
    end
    FileUtils.mkdir_p(dir)
    dir
  end

  context 'when the default folder has its own folder at a mount path' do
    before { folder('chat', 'notes/hidden.md' => "the default's\n") }

    it 'binds a writable mount over it: the code reads and writes the mount, the tree keeps what it wrote' do
      notes = RubyLLM::NativeDir.new(folder('notes', 'a.md' => "a\n"))
      tree = RubyLLM::FileStore::Mounts.new(chat, 'notes' => notes)
      result = shell(tree, 'ls notes; echo new > notes/a.md')
      expect(result.stdout).to eq("a.md\n")
      expect(result.changed).to eq(['notes/a.md'])
      expect([result.deleted, result.unsaved_files]).to eq([[], []])
      expect(tree.read('notes/a.md')).to eq("new\n")
      expect(File.read(File.join(chat_dir, 'notes/hidden.md'))).to eq("the default's\n")
    end

    it 'binds a read-only mount over it: the code cannot write there' do
      handbook = RubyLLM::NativeDir.new(folder('handbook', 'policy.md' => "25 days\n"), read_only: true)
      FileUtils.mv(File.join(chat_dir, 'notes'), File.join(chat_dir, 'handbook'))
      tree = RubyLLM::FileStore::Mounts.new(chat, 'handbook' => handbook)
      result = shell(tree, 'cat handbook/policy.md; echo mine > handbook/new.md')
      expect(result.stdout).to eq("25 days\n")
      expect(result.created).to eq([])
      expect(result.unsaved_files).to eq(['handbook/new.md'])
      expect(Dir.children(File.join(chat_dir, 'handbook'))).to eq(['hidden.md'])
    end

    it 'binds a staged mount over it: what the code wrote there is saved to the mount' do
      memory = RubyLLM::FileStore::Memory.new
      memory.write('a.md', "a\n")
      tree = RubyLLM::FileStore::Mounts.new(chat, 'notes' => memory)
      result = runner_for(tree, python: false, ruby: false, shell: true)
               .run(language: 'shell', code: 'ls notes; echo new > notes/a.md', files: ['notes'])
      expect(result.stdout).to eq("a.md\n")
      expect(result.changed).to eq(['notes/a.md'])
      expect(memory.read('a.md')).to eq("new\n")
    end

    it 'without a sandbox, names what the code wrote in the hidden folder as not kept, never saved or deleted' do
      notes = RubyLLM::NativeDir.new(folder('notes', 'a.md' => "a\n"))
      tree = RubyLLM::FileStore::Mounts.new(chat, 'notes' => notes)
      result = shell(tree, 'echo new > notes/a.md && rm notes/hidden.md', sandbox: false)
      expect([result.created, result.changed, result.deleted]).to eq([[], [], []])
      expect(result.unsaved_files).to eq(['notes/a.md'])
      expect(result.notes).to include(a_string_starting_with("notes/a.md: written where a mount's path hides"))
      expect(tree.read('notes/a.md')).to eq("a\n")
    end
  end

  it 'names a file of the default folder at a mount path, which the code changed, as not kept' do
    File.write(File.join(folder('chat', {}), 'handbook'), "the default's\n")
    handbook = RubyLLM::NativeDir.new(folder('handbook', 'policy.md' => "25 days\n"), read_only: true)
    tree = RubyLLM::FileStore::Mounts.new(chat, 'handbook' => handbook)
    result = shell(tree, 'echo mine > handbook')
    expect(result.changed).to eq([])
    expect(result.unsaved_files).to eq(['handbook'])
  end

  it 'holds the lock of a folder mounted twice (two stores of one folder) once, not waiting for itself' do
    tree = RubyLLM::FileStore::Mounts.new(chat, 'a' => RubyLLM::NativeDir.new(folder('shared', {})),
                                                'b' => RubyLLM::NativeDir.new(File.join(@tmp, 'shared')),
                                                'self' => RubyLLM::NativeDir.new(chat_dir))
    result = Timeout.timeout(15) { shell(tree, 'echo x > a/x; cat b/x') }
    expect(result.stdout).to eq("x\n")
    expect(result.created).to eq(%w[a/x b/x])
  end

  context 'when code nests files in a writable mount past what a full store path may be' do
    let(:mount_dir) { folder('deep', {}) }
    let(:tree) { RubyLLM::FileStore::Mounts.new(chat, 'a/b/c' => RubyLLM::NativeDir.new(mount_dir)) }
    # 62 folders below the mount: a path of the mount's own store, 3 names too deep for the tree.
    let(:deep) { Array.new(62, 'd').join('/') }

    before do
      FileUtils.mkdir_p(File.join(mount_dir, deep))
      File.write(File.join(mount_dir, deep, 'old.txt'), "old\n")
      File.write(File.join(mount_dir, deep, 'gone.txt'), "gone\n")
    end

    it 'removes what it created there, leaves what it changed, and gives a result the tree can use' do
      heard = []
      runner = runner_for(tree, python: false, ruby: false, shell: true).after_file_write { |file| heard << file.path }
      result = runner.run(language: 'shell', code: "cd a/b/c/#{deep} && echo new > new.txt && echo mine > old.txt " \
                                                   '&& rm gone.txt && echo ok')
      expect(result.stdout).to eq("ok\n")
      expect([result.created, result.changed, result.deleted, heard]).to eq([[], [], [], []])
      expect(result.notes).to include(a_string_starting_with('Removed, with paths past what a file path may be'),
                                      a_string_starting_with('Changed, but left out'))
      expect(Dir.children(File.join(mount_dir, deep))).to eq(['old.txt'])
    end
  end
end
