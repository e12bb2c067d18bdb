# frozen_string_literal: true

require_relative 'code_execution_helper'

# run_code over a RubyLLM::FileStore::Mounts tree (issue #30): the code sees
# every mount at its path, read-only mounts read-only, in place and staged.
RSpec.describe RubyLLM::FileStore::CodeExecution, 'over a tree of stores' do
  include_context 'with code execution'

  let(:handbook_dir) { File.join(@tmp, 'handbook') }
  let(:handbook) { RubyLLM::NativeDir.new(handbook_dir, read_only: true) }
  let(:code) do
    'cat handbook/policy.md; echo mine > handbook/new.md 2>/dev/null || echo refused; ' \
      'cat handbook/policy.md > copy.md'
  end

  before do
    FileUtils.mkdir_p(handbook_dir)
    File.write(File.join(handbook_dir, 'policy.md'), "25 days\n")
  end

  it 'runs in place in the default folder with a read-only folder mount bound read-only' do
    chat = RubyLLM::NativeDir.new(File.join(@tmp, 'chat'))
    tree = RubyLLM::FileStore::Mounts.new(chat, 'handbook' => handbook)
    runner = runner_for(tree, shell: true)
    expect(runner.in_place?).to be(true)
    result = runner.run(language: 'shell', code:)
    expect(result.stdout).to eq("25 days\nrefused\n")
    expect(result.created).to eq(['copy.md'])
    expect(chat.read('copy.md')).to eq("25 days\n")
    expect(File.exist?(File.join(handbook_dir, 'new.md'))).to be(false)
    expect(Dir.children(File.join(@tmp, 'chat'))).to eq(['copy.md']) # the mount point is taken away
  end

  it 'stages a default store that is not a folder, with the read-only folder mount bound, not copied' do
    scratch = RubyLLM::FileStore::Memory.new
    scratch.write('seed.md', "seed\n")
    default = RubyLLM::FileStore::Memory.new
    default.write('scratch/out.md', "hidden by the mount\n") # not a file of the tree: the save is no conflict
    tree = RubyLLM::FileStore::Mounts.new(default, 'handbook' => handbook, 'scratch' => scratch)
    runner = runner_for(tree, shell: true)
    expect(runner.in_place?).to be(false)
    result = runner.run(language: 'shell', code: "#{code}; cat scratch/seed.md > scratch/out.md",
                        files: %w[scratch]) # handbook is not named: it is bound, all of it
    expect(result.stdout).to eq("25 days\nrefused\n")
    expect(result.created).to eq(%w[copy.md scratch/out.md])
    expect(scratch.read('out.md')).to eq("seed\n")
    expect(tree.read('copy.md')).to eq("25 days\n")
    expect(File.exist?(File.join(handbook_dir, 'new.md'))).to be(false)
  end

  it 'keeps a staged mount writable under a read-only default store staged: its folder bound over the copy' do
    default = RubyLLM::FileStore::Memory.new
    default.write('a.md', "a\n")
    memories = RubyLLM::FileStore::Memory.new
    memories.write('x.md', "x\n")
    tree = RubyLLM::FileStore::Mounts.new(default.read_only_view, 'memories' => memories)
    result = runner_for(tree, shell: true).run(language: 'shell', files: %w[a.md memories],
                                               code: 'echo y >> memories/x.md; echo n > memories/n.md; echo b > a.md')
    expect([result.created, result.changed]).to eq([%w[memories/n.md], %w[memories/x.md]])
    kept = memories.list.to_h { |file| [file.path, memories.read(file.path)] }
    expect(kept).to eq('n.md' => "n\n", 'x.md' => "x\ny\n")
    expect(result.stderr).to include('a.md: Read-only file system')
    expect(default.read('a.md')).to eq("a\n")
  end

  it 'names what the code tried to write under a read-only mount, from its error' do
    tree = RubyLLM::FileStore::Mounts.new(RubyLLM::FileStore::Memory.new, 'handbook' => handbook)
    result = runner_for(tree, shell: true).run(language: 'shell', code: 'echo mine > handbook/new.md; true')
    expect(result.stderr).to include('Read-only file system')
    expect(result.unsaved_files).to eq(['handbook/new.md'])
    expect(result.files_error).to eq('handbook/new.md is read-only. Write your own copy elsewhere, such as ' \
                                     'notes/new.md.')
    expect(result.notes).to include(a_string_starting_with('handbook is read-only: the code could not write ' \
                                                           'handbook/new.md'))
    expect(Dir.children(handbook_dir)).to eq(['policy.md'])
  end

  # The default folder in place, a writable folder mount bound read-write, a
  # Memory mount staged and a read-only folder mount bound read-only, in one
  # run (issue #30).
  context 'with every kind of mount' do
    let(:chat_dir) { File.join(@tmp, 'chat') }
    let(:notes_dir) { File.join(@tmp, 'notes') }
    let(:chat) { RubyLLM::NativeDir.new(chat_dir) }
    let(:notes) { RubyLLM::NativeDir.new(notes_dir) }
    let(:memories) { RubyLLM::FileStore::Memory.new }
    let(:tree) do
      RubyLLM::FileStore::Mounts.new(chat, 'handbook' => handbook, 'memories' => memories, 'notes' => notes)
    end
    let(:runner) { runner_for(tree, shell: true) }

    before do
      chat.write('data.csv', "a,b\n1,2\n")
      notes.write('old.md', "old\n")
      memories.write('profile.md', "likes tea\n")
    end

    it 'runs in the default folder, each mount at its path, and names what changed by full path' do
      expect(runner.in_place?).to be(true)
      result = runner.run(language: 'shell', files: ['memories/profile.md'], code: <<~SH)
        cat data.csv
        cat handbook/policy.md > notes/policy-copy.md
        echo new > notes/fresh.md
        rm notes/old.md
        echo "likes coffee" > memories/profile.md
        echo x > handbook/x.md
        exit 0
      SH
      expect(result.stdout).to eq("a,b\n1,2\n")
      expect(result.created).to eq(%w[notes/fresh.md notes/policy-copy.md])
      expect(result.changed).to eq(['memories/profile.md'])
      expect(result.deleted).to eq(['notes/old.md'])
      expect(result.unsaved_files).to eq(['handbook/x.md'])
      expect(notes.read('policy-copy.md')).to eq("25 days\n")
      expect(notes['old.md']).to be_nil
      expect(memories.read('profile.md')).to eq("likes coffee\n")
      expect(Dir.children(handbook_dir)).to eq(['policy.md'])
      expect(Dir.children(chat_dir).sort).to eq(['data.csv']) # the mount points are taken away
      expect(result.files.map(&:path).sort).to eq(%w[memories/profile.md notes/fresh.md notes/policy-copy.md])
    end

    it 'names what Python and Ruby tried to write under a read-only mount, from their errors' do
      runner = runner_for(tree, shell: true, ruby: true)
      python = runner.run(language: 'python', code: "open('handbook/p.md', 'w').write('x')")
      expect(python.stderr).to include("[Errno 30] Read-only file system: 'handbook/p.md'")
      expect(python.unsaved_files).to eq(['handbook/p.md'])
      ruby = runner.run(language: 'ruby', code: "File.write(File.join(Dir.pwd, 'handbook', 'r.md'), 'x')")
      expect(ruby.unsaved_files).to eq(['handbook/r.md'])
      expect(Dir.children(handbook_dir)).to eq(['policy.md'])
    end

    it 'without a sandbox, binds nothing: every mount is staged, and a read-only one refuses what is saved back' do
      runner = runner_for(tree, shell: true, sandbox: false)
      expect(runner.in_place?).to be(true)
      result = runner.run(language: 'shell', files: %w[handbook/policy.md notes/old.md], code: <<~SH)
        cat data.csv handbook/policy.md
        echo more >> notes/old.md
        echo x > handbook/x.md
      SH
      expect(result.stdout).to eq("a,b\n1,2\n25 days\n")
      expect(result.changed).to eq(['notes/old.md'])
      expect(result.unsaved_files).to eq(['handbook/x.md'])
      expect(notes.read('old.md')).to eq("old\nmore\n")
      expect(Dir.children(handbook_dir)).to eq(['policy.md'])
      expect(Dir.children(chat_dir)).to eq(['data.csv']) # the links to the staged mounts are taken away
    end

    it 'stages a folder mount that holds another mount, so no mount point is made in its store' do
      api = RubyLLM::FileStore::Memory.new
      api.write('x.md', "x\n")
      tree = RubyLLM::FileStore::Mounts.new(chat, 'notes' => notes, 'notes/api' => api, 'notes/api/hb' => handbook)
      result = runner_for(tree, shell: true).run(language: 'shell', files: %w[notes/old.md notes/api/x.md],
                                                 code: 'cat notes/old.md notes/api/x.md notes/api/hb/policy.md; ' \
                                                       'echo y >> notes/api/x.md; echo n > notes/n.md')
      expect(result.stdout).to eq("old\nx\n25 days\n")
      expect(result.created).to eq(['notes/n.md'])
      expect(result.changed).to eq(['notes/api/x.md'])
      expect([notes.read('n.md'), api.read('x.md')]).to eq(%W[n\n x\ny\n])
      expect(Dir.children(notes_dir).sort).to eq(%w[n.md old.md])
    end

    it "holds a writable folder mount's lock for the run, so a write to it from another thread waits" do
      # The run says it started in the mount, then waits for go.txt, which
      # this thread writes in the mount's folder once the writer waits.
      code = "echo 1 > notes/started.txt\nfor i in $(seq 600); do [ -e notes/go.txt ] && break; sleep 0.05; done\n" \
             "echo run > notes/c.txt\n"
      run = Thread.new { runner.run(language: 'shell', code:) }
      Thread.pass until File.exist?(File.join(notes_dir, 'started.txt')) || !run.alive?
      writer = Thread.new { tree.write('notes/c.txt', 'writer') }
      Thread.pass until writer.status == 'sleep' || !writer.alive?
      File.write(File.join(notes_dir, 'go.txt'), 'go')
      expect(run.value.created).to include('notes/c.txt')
      writer.join
      # Without the lock, the writer would have gone first and the run's write would be last.
      expect(notes.read('c.txt')).to eq('writer')
    end

    it 'holds a writable folder mount to its own cap' do
      capped = RubyLLM::NativeDir.new(File.join(@tmp, 'capped'), max_bytes: 100)
      tree = RubyLLM::FileStore::Mounts.new(chat, 'notes' => capped)
      result = runner_for(tree, shell: true).run(language: 'shell', code: 'head -c 500 /dev/zero > notes/big.bin')
      expect(result.unsaved_files).to eq(['notes/big.bin'])
      expect(result.created).to eq([])
      expect(capped['big.bin']).to be_nil
      expect(result.files_error).to include('The limit is 100 bytes')
    end

    it 'tells the model which files to name' do
      description = runner.tool.description
      expect(description).to include('handbook is read-only')
      expect(description).to include('memories')
      expect(runner.tool.parameters[:properties][:files][:description]).to include('memories/')
    end
  end
end
