# frozen_string_literal: true

require_relative 'run_code_helper'

# Guarantee (issue #16, 5): run_code leaves no privileges behind. Code runs
# as user and group 65534 inside the sandbox (bubblewrap maps them to the
# host's user, root included, which stays the owner of what it writes), and
# after every run no file or folder the run made or changed, in hidden
# folders too, keeps a setuid, setgid or world-write bit.
RSpec.describe 'Guarantee: run_code leaves no privileges behind', :native do
  include_context 'with code execution'
  include RunCodeHelper

  let(:root) { File.join(@tmp, 'store') }
  let(:code) do
    <<~SH
      id -u; id -g
      mkdir -p .hidden/deeper shared
      cp /bin/sh .hidden/deeper/sh && chmod 4755 .hidden/deeper/sh
      cp /bin/sh suid && chmod 6755 suid
      : > open.txt && chmod 666 open.txt
      chmod 2777 shared .hidden
      chmod 4777 mine.sh
      echo done
    SH
  end

  it 'runs the code as 65534 and takes setuid, setgid and o+w from everything the run made or changed',
     :aggregate_failures do
    store = RubyLLM::NativeDir.new(root)
    store.write('mine.sh', "echo mine\n")
    result = shell(shell_runner(store), code)
    expect(result.stdout).to eq("65534\n65534\ndone\n")
    privileged = everything(root).select { |_, st| !st.symlink? && st.mode.anybits?(0o6002) }
    expect(privileged.map(&:first)).to eq([])
    expect(File.stat(File.join(root, 'suid')).mode & 0o777).to eq(0o755)
    expect(File.stat(File.join(root, 'mine.sh')).mode & 0o777).to eq(0o775)
    expect(result.notes.join).to include('Setuid, setgid and world-write permissions were taken from')
  end

  it 'leaves alone what the run did not touch' do
    store = RubyLLM::NativeDir.new(root)
    store.write('kept.txt', 'kept')
    File.chmod(0o666, File.join(root, 'kept.txt'))
    shell(shell_runner(store), 'echo hi > other.txt')
    expect(File.stat(File.join(root, 'kept.txt')).mode & 0o777).to eq(0o666)
  end

  # The store's own folder is the run's work folder, and a tree's writable
  # folder mount is bound at its path: the code may chmod either.
  it 'takes from the store folder, and from a writable folder mount of a tree, the bits the run gave them' do
    notes_dir = File.join(@tmp, 'notes')
    FileUtils.mkdir_p([root, notes_dir])
    File.chmod(0o2750, notes_dir) # its owner's setgid stays
    shell(shell_runner(RubyLLM::NativeDir.new(root)), 'chmod 6777 .')
    expect(File.stat(root).mode & 0o7777).to eq(0o775)
    tree = RubyLLM::FileStore::Mounts.new(RubyLLM::NativeDir.new(root), 'notes' => RubyLLM::NativeDir.new(notes_dir))
    shell(shell_runner(tree), 'chmod 2777 . && chmod 6777 notes')
    expect([File.stat(root).mode & 0o7777, File.stat(notes_dir).mode & 0o7777]).to eq([0o775, 0o2775])
  end
end
