# frozen_string_literal: true

require_relative 'run_code_helper'
require_relative 'staged_run_gate'

# Guarantee (issue #38, 2): a read-only folder gets no entry, ever, not even
# for the length of a run. A tree whose default store is a read-only folder
# (deployed docs, owned by root) with mounts in it, Mounts.new(NativeDir.new(
# docs, read_only: true), 'out' => NativeDir.new(out), 'scratch' => :memory):
# the old build made the mount points with mkdir in the read-only folder
# before the run. As the app's user that raised Errno::EACCES out of
# run_code on every run; as root the folder held out/ and scratch/ for the
# whole run, and for good when the process was killed mid-run. Now the
# sandbox lays the folder out on a tmpfs, each entry bound read-only beside
# the mounts, and what cannot be laid out answers { error: }.
#
# As root the folder is a copy of spec/fixtures/read_only_docs made here
# (root's own); bin/test-unprivileged hands the unprivileged run root-owned
# copies in RUBY_LLM_ROOT_OWNED: docs/, which that user can read but not
# change, and locked/, whose docs/ (mode 0711) it cannot list.
RSpec.describe 'Guarantee: run_code never changes a read-only folder, mounts or not', :native do
  include_context 'with code execution'
  include RunCodeHelper

  let(:fixture) { File.expand_path('../fixtures/read_only_docs', __dir__) }
  let(:docs) do
    if Process.uid.zero?
      FileUtils.cp_r(fixture, File.join(@tmp, 'docs'))
      File.join(@tmp, 'docs')
    else
      root_owned = ENV.fetch('RUBY_LLM_ROOT_OWNED') do
        Prerequisites.missing(self, 'RUBY_LLM_ROOT_OWNED is not set: run this as bin/test-unprivileged does')
      end
      File.join(root_owned, 'docs')
    end
  end
  let(:out) { File.join(@tmp, 'out').tap { |dir| FileUtils.mkdir_p(dir) } }
  let(:tree) do
    RubyLLM::FileStore::Mounts.new(RubyLLM::NativeDir.new(docs, read_only: true),
                                   'out' => RubyLLM::NativeDir.new(out), 'scratch' => :memory)
  end

  # The folder as the host sees it: every entry below it, and its own time.
  def state(dir) = [everything(dir).map { |path, st| [path, st.ftype, st.size, st.mtime] }, File.lstat(dir).mtime]

  def run_tool(runner, code) = runner.tool.call('language' => 'shell', 'code' => code)

  it 'runs over the folder and its mounts: reads it, writes land in out/, the folder stays as it was',
     :aggregate_failures do
    before = state(docs)
    result = run_tool(shell_runner(tree), <<~SH)
      cat policy.md docs/guide.md
      ls
      echo report > out/report.md
      echo note > scratch/note.md
      echo no > mine.md || echo refused
      mkdir docs/new || echo refused
    SH
    expect(result).to include(stdout: "25 days\n# Guide\ndocs\nout\npolicy.md\nscratch\nrefused\nrefused\n",
                              created: ['out/report.md', 'scratch/note.md'])
    expect(File.read(File.join(out, 'report.md'))).to eq("report\n")
    expect(tree.read('scratch/note.md')).to eq("note\n")
    expect(state(docs)).to eq(before)
  end

  it 'adds no entry to the folder during a run, nor after a run killed mid-way', :aggregate_failures do
    before = state(docs)
    gate = StagedRunGate.new(@tmp)
    runner = shell_runner(tree, mounts: { 'gate' => gate.dir })
    pid = fork do
      run_tool(runner, "#{gate.code}echo never\n")
    rescue Exception => e # rubocop:disable Lint/RescueException -- the parent must hear of it, not wait
      File.write(File.join(gate.dir, 'started'), "failed: #{e.class}: #{e.message}\n")
    ensure
      exit!(0)
    end
    started = gate.wait_started
    during = state(docs)
    Process.kill(:KILL, pid)
    Process.wait(pid)
    gate.go # a sandbox still waiting ends
    gate.close
    expect(started).to eq("started\n")
    expect(during).to eq(before)
    expect(state(docs)).to eq(before)
    expect(run_tool(shell_runner(tree), 'ls')).to include(stdout: "docs\nout\npolicy.md\nscratch\n")
  end

  it "binds the runner's own mounts and skills beside the folder's entries, making none in it" do
    before = state(docs)
    skill = File.join(@tmp, 'skill').tap { |dir| FileUtils.mkdir_p(dir) }
    File.write(File.join(skill, 'SKILL.md'), "skill\n")
    runner = shell_runner(RubyLLM::NativeDir.new(docs, read_only: true), skills: { 'pdf' => skill })
    result = run_tool(runner, 'cat skills/pdf/SKILL.md policy.md')
    expect([result[:stdout], state(docs)]).to eq(["skill\n25 days\n", before])
  end

  it 'keeps a link of the folder a link, never binding what it points to on the host' do
    FileUtils.cp_r(fixture, File.join(@tmp, 'linked'))
    secret = File.join(@tmp, 'secret.txt')
    File.write(secret, "secret\n")
    File.symlink(secret, File.join(@tmp, 'linked', 'link'))
    linked = RubyLLM::FileStore::Mounts.new(RubyLLM::NativeDir.new(File.join(@tmp, 'linked'), read_only: true),
                                            'out' => RubyLLM::NativeDir.new(out))
    result = run_tool(shell_runner(linked), 'readlink link; cat link 2>/dev/null || echo unreachable')
    expect(result[:stdout]).to eq("#{secret}\nunreachable\n")
  end

  it 'lays out the folders on the way to a nested mount, their own entries bound too', :aggregate_failures do
    before = state(docs)
    nested = RubyLLM::FileStore::Mounts.new(RubyLLM::NativeDir.new(docs, read_only: true),
                                            'docs/out' => RubyLLM::NativeDir.new(out), 'new/deep' => :memory)
    result = run_tool(shell_runner(nested), 'ls docs new; echo x > docs/out/x.md; echo y > docs/y.md || echo refused')
    expect(result).to include(stdout: "docs:\nguide.md\nout\n\nnew:\ndeep\nrefused\n", created: ['docs/out/x.md'])
    expect(state(docs)).to eq(before)
  end

  context 'with more entries than can be bound beside the mounts' do
    let(:wide) do
      File.join(@tmp, 'wide').tap do |dir|
        FileUtils.cp_r(fixture, dir)
        # With the fixture's two, past ReadOnlyRoot::MAX_ENTRIES (256).
        256.times { |i| File.write(File.join(dir, "f#{i}.txt"), '') }
      end
    end
    let(:wide_tree) do
      RubyLLM::FileStore::Mounts.new(RubyLLM::NativeDir.new(wide, read_only: true),
                                     'out' => RubyLLM::NativeDir.new(out))
    end

    it 'stages the folder: the named files copied in, writes to out/ land, the folder unchanged', :aggregate_failures do
      before = state(wide)
      runner = shell_runner(wide_tree)
      expect(runner.in_place?).to be(false)
      result = runner.tool.call('language' => 'shell', 'files' => ['policy.md'],
                                'code' => 'ls; cat policy.md > out/copy.md; echo mine > mine.md')
      expect(result).to include(stdout: "out\npolicy.md\n", created: ['out/copy.md'],
                                stderr: a_string_including('mine.md: Read-only file system'))
      expect(File.read(File.join(out, 'copy.md'))).to eq("25 days\n")
      expect(state(wide)).to eq(before)
    end

    it 'answers { error: } when the folder grew past it after the layout was chosen, changing nothing' do
      allow(RubyLLM::FileStore::CodeExecution::ReadOnlyRoot).to receive(:fits?).and_return(true)
      before = state(wide)
      result = run_tool(shell_runner(wide_tree), 'echo ran')
      expect([result, state(wide)]).to match([{ error: a_string_including('more than 256 entries') }, before])
    end
  end

  context 'as the app user, over folders of root', :unprivileged do
    it 'runs over a read-only one it cannot change' do
      expect([File.stat(docs).uid, File.writable?(docs)]).to eq([0, false])
      result = run_tool(shell_runner(tree), 'cat policy.md; echo report > out/report.md')
      expect(result).to include(stdout: "25 days\n", created: ['out/report.md'])
    end

    it 'answers { error: } where a mount point cannot be made, or a folder on the way cannot be read',
       :aggregate_failures do
      locked = File.join(File.dirname(docs), 'locked') # its docs/ of mode 0711: entered, not listed
      expect(File.stat(File.join(locked, 'docs')).mode & 0o777).to eq(0o711)
      writable = RubyLLM::FileStore::Mounts.new(RubyLLM::NativeDir.new(docs), 'out' => RubyLLM::NativeDir.new(out))
      unreadable = RubyLLM::FileStore::Mounts.new(RubyLLM::NativeDir.new(locked, read_only: true),
                                                  'docs/out' => RubyLLM::NativeDir.new(out))
      expect(run_tool(shell_runner(writable), 'echo ran'))
        .to match(error: a_string_including('a mount point could not be made', 'Permission denied'))
      expect(run_tool(shell_runner(unreadable), 'echo ran'))
        .to match(error: a_string_including('its entries cannot be read', 'Permission denied'))
    end
  end
end
