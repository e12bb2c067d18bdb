# frozen_string_literal: true

require_relative 'run_code_helper'

# Guarantee (issue #26, 4): code that takes its folders' permissions away
# (chmod 000) neither disables the sweep after the run nor jams the store.
# Where the host is not root (Puma, Sidekiq), the old sweep stopped at the
# first EACCES: a setuid shell, 20 MB past a 1 MB budget and 300 files past
# a budget of 50 were all kept, and list_files, search_files and every later
# run_code raised Errno::EACCES. Now the sweep gives the run's folders back
# to their owner (u+rwx, u+rw on files) before walking them, and the file
# tools answer { error: } for whatever cannot be read. As root, which
# permissions do not hold, these pass on any build; bin/test runs them as
# an unprivileged user too, where they failed on the old one.
RSpec.describe 'Guarantee: run_code cannot lock the sweep or the store out with permissions', :native do
  include_context 'with code execution'
  include RunCodeHelper

  let(:root) { File.join(@tmp, 'store') }
  let(:store) { RubyLLM::NativeDir.new(root) }
  let(:runner) { shell_runner(store, files_budget: 50, bytes_budget: 1024 * 1024) }
  let(:tools) { RubyLLM::FileStore::Tools.for(store).to_h { |tool| [tool.name, tool] } }
  let(:lock_out) do
    <<~SH
      mkdir -p box/inner
      cp /bin/sh box/inner/sh && chmod 4777 box/inner/sh
      head -c 20000000 /dev/zero > box/inner/big.bin
      i=0; while [ $i -lt 300 ]; do : > box/f$i.txt; i=$((i+1)); done
      chmod 000 box/inner box
      echo done
    SH
  end

  it 'holds a locked folder to the budget and takes setuid from what is in it', :aggregate_failures do
    store.write('notes.md', "kept\n")
    result = shell(runner, lock_out)
    expect(result.stdout).to eq("done\n")
    entries = everything(root)
    expect(entries.select { |_, st| !st.symlink? && st.mode.anybits?(0o6002) }.map(&:first)).to eq([])
    expect(entries.count { |_, st| st.file? }).to be <= 51
    expect(entries.select { |_, st| st.file? }.sum { |_, st| st.size }).to be <= 1024 * 1024
    expect(result.notes.join).to include('Not kept, past what one run may leave')
  end

  it 'leaves a store every tool and the next run can use', :aggregate_failures do
    store.write('notes.md', "needle\n")
    shell(runner, lock_out)
    expect(tools['list_files'].call({})).to be_a(String).and include('notes.md')
    expect(tools['search_files'].call('pattern' => 'needle')).to be_a(String).and include('notes.md')
    expect(shell(runner, 'rm -rf box && echo cleaned').stdout).to eq("cleaned\n")
    expect(File.exist?(File.join(root, 'box'))).to be(false)
  end

  it 'gives a file of mode 000 back to its owner, so list_files and read_file answer', :aggregate_failures do
    shell(runner, 'echo secret > hidden.txt && chmod 000 hidden.txt')
    expect(File.stat(File.join(root, 'hidden.txt')).mode & 0o600).to eq(0o600)
    expect(tools['list_files'].call({})).to be_a(String).and include('hidden.txt')
    expect(tools['read_file'].call('path' => 'hidden.txt')).to be_a(String).and include('secret')
  end

  it 'answers { error: } for a file the store cannot read, never Errno::EACCES', :aggregate_failures,
     :unprivileged do
    store.write('locked.txt', "x\n")
    File.chmod(0o000, File.join(root, 'locked.txt'))
    denied = { error: /\APermission denied: locked\.txt.*run_code can give them back/ }
    expect(tools['list_files'].call({})).to match(denied)
    expect(tools['read_file'].call('path' => 'locked.txt')).to match(denied)
    # search_files searches what it can and names the file it could not.
    expect(tools['search_files'].call('pattern' => 'x'))
      .to match(/\ANo matches\.\nCould not search 1 file: locked\.txt \(.*Permission denied/)
    expect(shell(runner, 'chmod u+r locked.txt && cat locked.txt').stdout).to eq("x\n")
    expect(tools['list_files'].call({})).to be_a(String).and include('locked.txt')
  end

  it 'gives back what was locked before the run, and never takes its files for the run\'s', :aggregate_failures do
    60.times { |i| store.write("old/#{i}.txt", "#{i}\n") }
    File.chmod(0o000, File.join(root, 'old'))
    result = shell(runner, 'chmod 755 old && echo ok')
    expect(result.stdout).to eq("ok\n")
    expect(result.notes.join).not_to include('Not kept')
    expect(Dir.children(File.join(root, 'old')).size).to eq(60)
    expect(tools['list_files'].call({})).to be_a(String).and include('old/59.txt')
  end

  it 'removes a staged run scratch folder whatever modes code left in it', :aggregate_failures do
    memory = RubyLLM::FileStore::Memory.new
    memory.write('in.txt', "x\n")
    scratch = File.join(@tmp, 'scratch')
    shm = File.join(@tmp, 'shm')
    [scratch, shm].each { |dir| Dir.mkdir(dir) }
    stub_const('RubyLLM::FileStore::CodeExecution::Staging::SHM', shm)
    old = ENV.fetch('TMPDIR', nil)
    ENV['TMPDIR'] = scratch
    begin
      result = shell(shell_runner(memory), 'mkdir -p a/b && head -c 1000000 /dev/zero > a/b/z && chmod 000 a/b a . ' \
                                           '&& echo done', files: ['in.txt'])
    ensure
      ENV['TMPDIR'] = old
    end
    expect(result.stdout).to eq("done\n")
    expect(Dir.children(scratch) + Dir.children(shm)).to eq([])
  end
end
