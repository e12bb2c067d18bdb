# frozen_string_literal: true

require 'timeout'

# Two trees that mount the same two stores under names in opposite orders,
# moving between them in opposite directions: with the locks taken in each
# tree's own order, each move takes its first lock and waits for the other's
# second. The gate holds each mover, once it has its first lock, until the
# other has one too (or 1 s passes), so that interleaving always happens when
# the order lets it: with one global order the second mover waits for the
# first lock instead, and the first, after its wait at the gate, finishes.
RSpec.describe RubyLLM::FileStore::Mounts::Locks do
  include_context 'in a temporary folder'

  # Two parties meet, or one gives up after +timeout+ seconds.
  let(:gate) do
    Class.new do
      def initialize
        @mutex = Mutex.new
        @arrived = ConditionVariable.new
        @count = 0
      end

      def meet(timeout)
        deadline = Process.clock_gettime(Process::CLOCK_MONOTONIC) + timeout
        @mutex.synchronize do
          @count += 1
          @arrived.broadcast
          until @count >= 2
            left = deadline - Process.clock_gettime(Process::CLOCK_MONOTONIC)
            break if left <= 0

            @arrived.wait(@mutex, left)
          end
        end
      end
    end.new
  end

  # Stops at the gate when the thread that armed it takes its first lock.
  let(:gated_memory) do
    Class.new(RubyLLM::FileStore::Memory) do
      attr_accessor :gate

      def with_lock(&block)
        super() do
          if Thread.current[:gate_armed]
            Thread.current[:gate_armed] = false
            gate.meet(1)
          end
          block.call
        end
      end
    end
  end

  # A thread that stops at the gate once it holds its first gated lock.
  def armed(&block)
    Thread.new do
      Thread.current[:gate_armed] = true
      block.call
    end
  end

  def movers(one, other, from, to)
    [armed { one.move("#{from}/x.md", "#{to}/x.md") }, armed { other.move("#{from}/y.md", "#{to}/y.md") }]
  end

  def finish(threads)
    done = threads.map { |thread| thread.join(10) }
    threads.each(&:kill)
    expect(done).to all(be_truthy), 'the two moves deadlocked: each held one lock and waited for the other'
    threads.each(&:value)
  end

  it 'two trees mounting the same stores under names in opposite orders move in opposite directions' do
    first = gated_memory.new.tap { |store| store.gate = gate }
    second = gated_memory.new.tap { |store| store.gate = gate }
    first.write('x.md', 'x')
    second.write('y.md', 'y')
    one = RubyLLM::FileStore::Mounts.new(:memory, 'a' => first, 'b' => second)
    other = RubyLLM::FileStore::Mounts.new(:memory, 'a' => second, 'b' => first)
    # one moves first → second (a → b); other moves second → first (a → b too: its a is second).
    finish(movers(one, other, 'a', 'b'))
    expect(first.list.map(&:path)).to eq(['y.md'])
    expect(second.list.map(&:path)).to eq(['x.md'])
  end

  it "with_lock of one tree and a move in another take the same stores' locks in one order" do
    first = gated_memory.new.tap { |store| store.gate = gate }
    second = gated_memory.new.tap { |store| store.gate = gate }
    second.write('y.md', 'y')
    one = RubyLLM::FileStore::Mounts.new(:memory, 'a' => first, 'b' => second)
    other = RubyLLM::FileStore::Mounts.new(:memory, 'a' => second, 'b' => first)
    threads = [armed { one.with_lock { one.write('a/x.md', 'x') } }, armed { other.move('a/y.md', 'b/y.md') }]
    finish(threads)
    expect(first.list.map(&:path)).to eq(%w[x.md y.md])
  end

  it 'orders stores by lock_key, the same whatever the mount names, and a tree mounted in a tree by its stores' do
    disk = RubyLLM::NativeDir.new(File.join(@tmp, 'disk'))
    again = RubyLLM::NativeDir.new(File.join(@tmp, 'disk'))
    memory = RubyLLM::FileStore::Memory.new
    inner = RubyLLM::FileStore::Mounts.new(memory, 'd' => disk)
    expect(again.lock_key).to eq(disk.lock_key)
    expect(memory.for_owner(Struct.new(:id).new(1)).lock_key).to eq(memory.lock_key)
    keys = described_class.ordered([inner, memory, disk]).map(&:lock_key)
    expect(keys).to eq([disk.lock_key, memory.lock_key].sort)
    expect(described_class.ordered([RubyLLM::NativeDir.new(File.join(@tmp, 'ro'), read_only: true)])).to eq([])
  end

  it 'takes the lock of two writable NativeDir objects on one folder in a tree once, never waiting for itself' do
    folder = File.join(@tmp, 'same')
    two = RubyLLM::FileStore::Mounts.new(RubyLLM::NativeDir.new(folder), 'x' => RubyLLM::NativeDir.new(folder))
    writer = Thread.new { two.with_lock { two.write('x/b.md', 'b') } }
    expect(writer.join(10)).to be_truthy, 'with_lock waited for itself'
    expect(two.read('b.md')).to eq('b')
    one = RubyLLM::NativeDir.new(folder)
    shared = RubyLLM::FileStore::Mounts.new(one, 'x' => one, 'ro' => RubyLLM::NativeDir.new(folder, read_only: true))
    holder = Thread.new { shared.with_lock { shared.write('x/a.md', 'a') } }
    expect(holder.join(10)).to be_truthy, 'with_lock waited for itself'
    expect(one.read('a.md')).to eq('a')
  end

  it 'two processes moving between the same two folders, mounted under names in opposite orders, finish' do
    paths = [File.join(@tmp, 'p'), File.join(@tmp, 'q')]
    RubyLLM::NativeDir.new(paths[0]).write('x.md', 'x')
    RubyLLM::NativeDir.new(paths[1]).write('y.md', 'y')
    pipes = [IO.pipe, IO.pipe]
    pids = [[paths, pipes[0][1], pipes[1][0], 'x.md'], [paths.reverse, pipes[1][1], pipes[0][0], 'y.md']]
           .map { |order, out, inn, name| fork { exit!(child_move(order, out, inn, name)) } }
    pipes.flatten.each(&:close)
    statuses = pids.map { |pid| wait_for(pid, 15) }
    expect(statuses).to all(eq(0)), 'the two processes deadlocked: each held one folder lock and waited for the other'
    expect(RubyLLM::NativeDir.new(paths[0]).list.map(&:path)).to eq(['y.md'])
    expect(RubyLLM::NativeDir.new(paths[1]).list.map(&:path)).to eq(['x.md'])
  end

  # In a forked child: mounts +order+'s folders as a and b, and moves a/+name+
  # to b/, meeting the other process (a byte each way) once it holds a lock.
  def child_move(order, out, inn, name)
    gated = Class.new(RubyLLM::NativeDir) do
      define_method(:with_lock) do |&block|
        super() do
          if Thread.current[:gate_armed]
            Thread.current[:gate_armed] = false
            out.write('.')
            out.flush
            inn.wait_readable(1)
          end
          block.call
        end
      end
    end
    tree = RubyLLM::FileStore::Mounts.new(:memory, 'a' => gated.new(order[0]), 'b' => gated.new(order[1]))
    Thread.current[:gate_armed] = true
    tree.move("a/#{name}", "b/#{name}")
    0
  rescue StandardError => e
    warn e.full_message
    1
  end

  def wait_for(pid, seconds)
    deadline = Process.clock_gettime(Process::CLOCK_MONOTONIC) + seconds
    loop do
      _, status = Process.waitpid2(pid, Process::WNOHANG)
      return status.exitstatus if status
      break if Process.clock_gettime(Process::CLOCK_MONOTONIC) > deadline

      sleep 0.05
    end
    Process.kill(:KILL, pid)
    Process.waitpid(pid)
    :deadlocked
  end
end
