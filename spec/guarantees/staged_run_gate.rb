# frozen_string_literal: true

require 'io/wait'
require_relative 'run_code_helper'

# Orders a staged run against another request's tools without sleeping: a
# folder mounted read-only into the run holds two FIFOs. The run's code
# writes to +started+ once its files are copied in, then blocks reading +go+
# until the test, having made its edits, writes to it.
class StagedRunGate
  WAIT = 60 # seconds before a step that never comes fails the example

  attr_reader :dir

  def initialize(parent)
    @dir = File.join(parent, 'gate')
    Dir.mkdir(@dir)
    File.chmod(0o755, @dir) # the sandbox runs as 65534
    %w[started go].each do |name|
      File.mkfifo(File.join(@dir, name))
      File.chmod(0o666, File.join(@dir, name))
    end
    # Read and write ends both here: neither side's open ever blocks.
    @started = File.open(File.join(@dir, 'started'), File::RDWR | File::NONBLOCK)
    @go = File.open(File.join(@dir, 'go'), File::RDWR | File::NONBLOCK)
  end

  # Shell for the run: say it started, then wait for the test.
  def code = "echo started > gate/started\nread go < gate/go\n"

  def wait_started
    raise "the run did not start within #{WAIT} s" unless @started.wait_readable(WAIT)

    @started.read_nonblock(100)
  end

  def go = @go.syswrite("go\n")

  def close = [@started, @go].each(&:close)
end

# A staged run (the run_code tool, in a thread) that appends to plan.md
# and edits notes.md while another request, through the tools, edits plan.md
# (answered "Edited ..."), deletes notes.md and writes report.md, which the
# run creates too. +store+ is the store under test.
RSpec.shared_examples 'a staged run that keeps concurrent edits' do
  include RunCodeHelper

  def tools(store)
    RubyLLM::FileStore::Tools.for(store, tools: %i[read write edit delete]).to_h { |tool| [tool.name, tool] }
  end

  it 'never writes its copy back over what another request changed during the run' do
    store.write('plan.md', "# Plan\n- one\n")
    store.write('notes.md', "notes\n")
    store.write('data.csv', "a\n1\n")
    gate = StagedRunGate.new(@tmp)
    runner = shell_runner(store, mounts: { 'gate' => gate.dir })
    code = "#{gate.code}echo '- from the run' >> plan.md\necho more >> notes.md\n" \
           "echo run > report.md\necho 2 >> data.csv\necho made > made.md\necho done\n"
    run = Thread.new do
      runner.tool.call('language' => 'shell', 'code' => code, 'files' => %w[plan.md notes.md data.csv])
    end
    gate.wait_started
    other = tools(store)
    expect(other['read_file'].call('path' => 'plan.md')).to include('- one')
    expect(other['edit_file'].call('path' => 'plan.md', 'old_text' => '- one', 'new_text' => '- one, edited'))
      .to eq('Edited plan.md (1 replacement).')
    expect(other['delete_file'].call('path' => 'notes.md')).to eq('Deleted notes.md.')
    expect(other['write_file'].call('path' => 'report.md', 'content' => "theirs\n")).to start_with('Created report.md')
    gate.go
    answer = run.join(CodeExecutionHelper::FAST[:timeout] + StagedRunGate::WAIT)&.value
    gate.close

    expect(answer).to include(stdout: "done\n")
    expect(store.read('plan.md')).to eq("# Plan\n- one, edited\n")
    expect(store['notes.md']).to be_nil
    expect(store.read('report.md')).to eq("theirs\n")
    expect(answer[:unsaved_files]).to contain_exactly('plan.md', 'notes.md', 'report.md')
    notes = answer[:notes].join("\n")
    expect(notes).to include('plan.md: changed in the files while the code ran')
    expect(notes).to include('notes.md: deleted from the files while the code ran')
    expect(notes).to include('report.md: created in the files by someone else while the code ran')
    expect(notes).to include("the run's version was not saved")
    # What nobody else touched is saved as before.
    expect(answer).to include(created: ['made.md'], changed: ['data.csv'])
    expect(store.read('data.csv')).to eq("a\n1\n2\n")
    expect(store.read('made.md')).to eq("made\n")
  end
end
