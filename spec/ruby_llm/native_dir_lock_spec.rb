# frozen_string_literal: true

require 'io/wait'

# Two NativeDir objects on one folder share one lock in a process: each had
# its own, with its own flock, and `a.with_lock { b.write(...) }` waited for
# itself forever in one thread.
RSpec.describe RubyLLM::NativeDir, :native do
  include_context 'in a temporary folder'
  before { @root = File.join(@tmp, 'work') }

  let(:a) { described_class.new(@root) }
  let(:b) { described_class.new(@root) }

  # Runs the block in a thread and waits 5 s for it, then kills it: a
  # deadlock fails the example, it does not hang the run.
  def finishes(&)
    worker = Thread.new(&)
    finished = worker.join(5)
    worker.kill unless finished
    raise 'deadlocked: the block did not finish within 5 s' unless finished

    worker.value
  end

  it 'lets the holder of one object write through another object of the folder' do
    expect(finishes { a.with_lock { b.write('x.md', '1').path } }).to eq('x.md')
    expect(a.read('x.md')).to eq('1')
  end

  it 'shares the lock between spellings of the folder, a symlink among them' do
    FileUtils.mkdir_p(@root)
    File.symlink(@root, File.join(@tmp, 'link'))
    linked = described_class.new(File.join(@tmp, 'link'))
    dotted = described_class.new("#{@tmp}/./work/")
    written = finishes { a.with_lock { linked.with_lock { dotted.write('y.md', '2').path } } }
    expect(written).to eq('y.md')
  end

  it 'still makes another thread wait, whichever object it writes through' do
    held = Queue.new
    release = Queue.new
    holder = Thread.new do
      a.with_lock do
        held << true
        release.pop
      end
    end
    held.pop
    writer = Thread.new { b.write('z.md', 'after') }
    expect(writer.join(0.3)).to be_nil # waiting for a's holder
    expect(a.exist?('z.md')).to be(false)
    release << true
    holder.join
    expect(writer.join(5)&.value&.path).to eq('z.md')
  end

  it "makes a child forked inside a's hold wait for the parent, through b or a new object" do
    b # made before the fork: the child inherits it
    out, out_w = IO.pipe
    child = nil
    a.with_lock do
      child = fork do
        out.close
        b.write('inherited.md', 'child')
        # A new object in the child shares the inherited objects' lock too.
        a.with_lock { described_class.new(@root).write('fresh.md', 'child') }
        out_w.puts 'written'
        exit!(0)
      rescue StandardError
        exit!(1)
      end
      out_w.close
      expect(out.wait_readable(0.5)).to be_nil # the child waits while the parent holds
      expect(a.exist?('inherited.md')).to be(false)
    end
    expect(out.wait_readable(10)).not_to be_nil
    expect(out.gets).to eq("written\n")
    expect(Process.wait2(child).last).to be_success
    child = nil
    expect(a.read('fresh.md')).to eq('child')
  ensure
    out&.close
    Process.kill('KILL', child) && Process.wait(child) if child
  end
end
