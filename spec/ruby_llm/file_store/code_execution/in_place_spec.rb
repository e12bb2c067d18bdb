# frozen_string_literal: true

require_relative 'code_execution_helper'

RSpec.describe RubyLLM::FileStore::CodeExecution, 'in place, on a NativeDir' do
  include_context 'with code execution'

  let(:store) { RubyLLM::NativeDir.new(File.join(@tmp, 'work')) }
  let(:runner) { runner_for(store) }

  it 'runs in the folder: what the code creates, changes and deletes is in the store at once' do
    store.write('keep.txt', "same\n")
    store.write('notes.md', "old\n")
    store.write('gone.txt', "bye\n")
    result = python(runner, <<~PY)
      import os
      print(sorted(os.listdir('.')))
      with open('notes.md', 'a') as f: f.write('new\\n')
      os.makedirs('out', exist_ok=True)
      open('out/report.csv', 'w').write('a,b\\n1,2\\n')
      os.remove('gone.txt')
    PY

    expect(result.exit_status).to eq(0)
    expect(result.stdout).to eq("['gone.txt', 'keep.txt', 'notes.md']\n")
    expect(result.created).to eq(['out/report.csv'])
    expect(result.changed).to eq(['notes.md'])
    expect(result.deleted).to eq(['gone.txt'])
    expect(store.list.map(&:path)).to eq(%w[keep.txt notes.md out/report.csv])
    expect(store.read('notes.md')).to eq("old\nnew\n")
    expect(result.to_h).to include(created: ['out/report.csv'], changed: ['notes.md'])
    expect(result.to_h.to_s).not_to include('a,b')
  end

  it 'holds the folder lock for the run, so a write from another thread waits for it' do
    # The run says it started, then waits for go.txt, which this thread
    # writes beside the store's own files once the writer waits for the lock.
    code = "import os, time\nopen('started.txt', 'w').write('1')\n" \
           "for _ in range(600):\n    if os.path.exists('go.txt'): break\n    time.sleep(0.05)\n" \
           "open('c.txt', 'w').write('run')"
    run = Thread.new { python(runner, code) }
    Thread.pass until File.exist?(File.join(store.local_root, 'started.txt')) || !run.alive?
    writer = Thread.new { store.write('c.txt', 'writer') }
    Thread.pass until writer.status == 'sleep' || !writer.alive?
    File.write(File.join(store.local_root, 'go.txt'), 'go')
    run.join
    writer.join
    # Without the lock, the writer would have gone first and the run's write would be last.
    expect(store.read('c.txt')).to eq('writer')
  end

  it 'marks files the model read and the run changed as changed, so edit_file wants a new read' do
    tools = RubyLLM::FileStore::Tools.for(store)
    read_file = tools.find { |tool| tool.name == 'read_file' }
    edit_file = tools.find { |tool| tool.name == 'edit_file' }
    store.write('plan.md', "step one\n")
    read_file.call('path' => 'plan.md')
    expect(store.read_digest('plan.md')).not_to be_nil

    result = runner.tool.call('language' => 'python', 'code' => "open('plan.md','a').write('step two\\n')")
    expect(result[:changed]).to eq(['plan.md'])
    expect(result[:notes].join).to include('Read plan.md again')
    refusal = edit_file.call('path' => 'plan.md', 'old_text' => 'step one', 'new_text' => 'step 1')
    expect(refusal[:error]).to eq('plan.md changed since you read it. Read it again.')
    read_file.call('path' => 'plan.md')
    expect(edit_file.call('path' => 'plan.md', 'old_text' => 'step one', 'new_text' => 'step 1')).to be_a(String)
    expect(store.read('plan.md')).to eq("step 1\nstep two\n")
  end

  it 'calls the write hooks with each created or changed file, not deleted ones' do
    seen = []
    store.write('a.txt', 'a')
    store.write('b.txt', 'b')
    runner = runner_for(store, on_write: ->(file) { seen << [:option, file.path] })
    runner.after_file_write { |file| seen << [:block, file.path, file.byte_size] }
    python(runner, "open('a.txt','w').write('aaa')\nopen('c.txt','w').write('c')\nimport os\nos.remove('b.txt')")
    expect(seen).to contain_exactly([:option, 'a.txt'], [:option, 'c.txt'], [:block, 'a.txt', 3], [:block, 'c.txt', 1])
  end

  it 'leaves hidden files out of the result, as the store leaves them out of its files' do
    result = python(runner, "open('.cache','w').write('x')\nopen('seen.txt','w').write('y')")
    expect(result.created).to eq(['seen.txt'])
    expect(store.list.map(&:path)).to eq(['seen.txt'])
  end

  it 'ignores the files argument: every file is already there' do
    store.write('data.csv', "x\n1\n")
    result = runner.run(language: 'python', code: "print(open('data.csv').read())", files: ['nothing.csv'])
    expect(result.stdout).to eq("x\n1\n\n")
  end

  it 'keeps within a capped store: created files that do not fit are removed and listed as unsaved' do
    capped = RubyLLM::NativeDir.new(File.join(@tmp, 'capped'), max_bytes: 10_000)
    result = python(runner_for(capped), "open('small.txt','w').write('s'*100)\nopen('big.bin','wb').write(b'b'*50000)")
    expect(result.unsaved_files).to eq(['big.bin'])
    expect(result.files_error).to include('full')
    expect(result.created).to eq(['small.txt'])
    expect(capped.list.map(&:path)).to eq(['small.txt'])
  end

  it 'runs Ruby and shell code too' do
    ruby = runner.run(language: 'ruby', code: "File.write('r.txt', 'ruby')\nputs 6 * 7")
    shell = runner.run(language: 'shell', code: "echo shell > s.txt\necho $((6 * 7)) >&2\nexit 3")
    expect([ruby.stdout, ruby.created]).to eq(["42\n", ['r.txt']])
    expect([shell.stderr, shell.exit_status, shell.created]).to eq(["42\n", 3, ['s.txt']])
  end

  context 'on a read-only NativeDir' do
    let(:store) do
      RubyLLM::NativeDir.new(File.join(@tmp, 'work')).write('policy.md', "# Policy\n")
      RubyLLM::NativeDir.new(File.join(@tmp, 'work'), read_only: true)
    end

    it 'binds the folder read-only: reads work, writes fail, nothing changes, and the result says why' do
      result = python(runner, <<~PY)
        print(open('policy.md').read(), end='')
        for name, how in (('policy.md', 'a'), ('new.md', 'w')):
            try:
                open(name, how).write('x')
            except OSError as e:
                print(name, e.strerror)
        open('/tmp/scratch.txt', 'w').write('fine')
      PY

      expect(result.stdout).to eq("# Policy\npolicy.md Read-only file system\nnew.md Read-only file system\n")
      expect(result.created + result.changed + result.deleted).to eq([])
      expect(result.notes).to include(RubyLLM::FileStore::CodeExecution::Report::READ_ONLY)
      expect(store.list.map(&:path)).to eq(['policy.md'])
      expect(store.read('policy.md')).to eq("# Policy\n")
    end

    it 'runs staged without a sandbox, which could not hold the folder read-only' do
      expect(runner.in_place?).to be(true)
      expect(runner_for(store, sandbox: false).in_place?).to be(false)
      expect(runner_for(RubyLLM::NativeDir.new(File.join(@tmp, 'work')), sandbox: false).in_place?).to be(true)
    end
  end
end
