# frozen_string_literal: true

require_relative 'code_execution_helper'

# Code a model should not be able to get away with. Each case is stopped or
# contained with a result that says what happened, the canary outside the
# folder is untouched, and this Ruby process carries on unharmed.
RSpec.describe RubyLLM::FileStore::CodeExecution, 'with hostile code' do
  include_context 'with code execution'

  let(:canary) { File.join(@tmp, 'outside', 'canary.txt') }
  let(:stores) do
    { 'in place' => RubyLLM::NativeDir.new(File.join(@tmp, 'work')), 'staged' => RubyLLM::FileStore::Memory.new }
  end

  before do
    FileUtils.mkdir_p(File.dirname(canary))
    File.write(canary, 'canary')
    @canary_stat = File.stat(canary)
    @threads = Thread.list.size
    @children = children
  end

  # A thread may end between the glob and the read: its file is gone then.
  def children
    Dir['/proc/self/task/*/children'].flat_map do |file|
      File.read(file).split
    rescue Errno::ENOENT, Errno::ESRCH
      []
    end.sort
  end

  after do
    expect(File.read(canary)).to eq('canary')
    expect(File.stat(canary).mtime).to eq(@canary_stat.mtime)
    expect(Dir.children(File.dirname(canary))).to eq(['canary.txt'])
    # No child process left behind, no reader thread left running.
    expect(children).to eq(@children)
    expect(Thread.list.size).to be <= @threads
  end

  ['in place', 'staged'].each do |way|
    context way do
      let(:store) { stores.fetch(way) }
      let(:runner) { runner_for(store, timeout: 3) }

      it 'cannot read, write or remove a file outside the folder' do
        result = python(runner, <<~PY)
          import os
          for attempt in (lambda: open(#{canary.inspect}).read(),
                          lambda: open(#{canary.inspect}, 'w').write('pwned'),
                          lambda: os.remove(#{canary.inspect}),
                          lambda: open('../../outside/canary.txt').read(),
                          lambda: os.link(#{canary.inspect}, 'hard.txt')):
              try:
                  attempt()
                  print('reached')
              except OSError as e:
                  print(type(e).__name__)
        PY
        expect(result.stdout).not_to include('reached')
        expect(result.stdout.lines.size).to eq(5)
        expect(result.created).to eq([])
      end

      it 'has no network' do
        result = python(runner, <<~PY)
          import socket
          try:
              socket.create_connection(('1.1.1.1', 53), timeout=2)
              print('connected')
          except OSError as e:
              print('refused', e.errno)
          print(socket.gethostname())
        PY
        expect(result.stdout).to match(/\Arefused \d+\nsandbox\n\z/)
      end

      it 'stops a fork bomb at the process limit, then at the time limit' do
        result = runner.run(language: 'shell', code: 'bomb() { bomb | bomb & }; bomb; sleep 1; echo alive')
        expect(result.notes.join).to include('more than 32 processes')
      end

      it 'stops an infinite loop at the time limit' do
        started = Process.clock_gettime(Process::CLOCK_MONOTONIC)
        result = python(runner, "print('looping', flush=True)\nwhile True: pass")
        expect(result.stopped).to eq('Stopped after 3 seconds: the time limit.')
        expect(result.stdout).to eq("looping\n")
        expect(Process.clock_gettime(Process::CLOCK_MONOTONIC) - started).to be < 10
      end

      it 'refuses a 4 GB allocation' do
        result = python(runner, "x = b'x' * (4 * 1024 ** 3)\nprint(len(x))")
        expect(result.exit_status).not_to eq(0)
        expect(result.stderr + result.stopped.to_s).to match(/MemoryError|memory/)
      end

      it 'stops a 10 GB write at the file size limit' do
        result = python(runner, <<~PY)
          with open('huge.bin', 'wb') as f:
              for _ in range(10 * 1024):
                  f.write(b'x' * (1024 * 1024))
        PY
        expect(result.stderr).to include('File too large')
        expect(store['huge.bin']&.byte_size.to_i).to be <= CodeExecutionHelper::FAST[:file_size]
      end

      it 'leaves a link to outside behind without the store reading through it' do
        result = runner.run(language: 'shell', code: "ln -s #{canary} leak.txt; ln -s #{File.dirname(canary)} leakdir")
        expect(result.created).to eq([])
        expect(result.notes.join).to include('leak.txt', 'leakdir')
        expect(store['leak.txt']).to be_nil
        expect { store.read('leak.txt') }.to raise_error(RubyLLM::FileNotFoundError)
        expect(store.list.map(&:path)).to eq([])
      end
    end
  end

  it 'kills what the code left running in the background when it ends' do
    runner = runner_for(stores.fetch('in place'), timeout: 3)
    # A sleep no other process has: once the run has returned, none is left.
    marker = "31.#{Process.pid}"
    result = runner.run(language: 'shell', code: "sleep #{marker} &\necho early")
    expect(result.stdout).to eq("early\n")
    left = Dir['/proc/[0-9]*/cmdline'].select do |cmdline|
      File.read(cmdline).split("\0") == ['sleep', marker]
    rescue SystemCallError
      false
    end
    expect(left).to be_empty
  end

  it 'keeps the output to its limit, with a note saying how much was cut' do
    runner = runner_for(RubyLLM::FileStore::Memory.new, output_limit: 1_000)
    result = python(runner, "print('a' * 100_000)\nprint('the end')")
    expect(result.stdout.bytesize).to be < 1_100
    expect(result.stdout).to start_with('aaaa').and end_with("the end\n")
    expect(result.stdout).to include('bytes not shown')
  end
end
