# frozen_string_literal: true

require 'fileutils'
require 'timeout'

# NativeDir under threads and processes: the lock, and the GVL released
# during long native calls.
RSpec.describe RubyLLM::NativeDir, :native do
  include_context 'in a temporary folder'
  before { @root = File.join(@tmp, 'store') }

  let(:store) { described_class.new(@root) }

  # Adds 1 to the number in counter.txt, under the lock, reading it first:
  # without mutual exclusion, increments are lost.
  def increment(store)
    store.with_lock do
      value = store.exist?('counter.txt') ? Integer(store.read('counter.txt')) : 0
      Thread.pass
      store.write('counter.txt', (value + 1).to_s)
    end
  end

  it 'serialises with_lock between two processes: no increment is lost' do
    store.write('counter.txt', '0')
    pids = Array.new(2) do
      fork do
        other = described_class.new(@root) # each process opens the folder itself
        100.times { increment(other) }
        exit!(0)
      end
    end
    statuses = pids.map { |pid| Process.wait2(pid).last }
    expect(statuses).to all(be_success)
    expect(store.read('counter.txt')).to eq('200')
  end

  it 'serialises a store object inherited across fork with its parent' do
    store.write('counter.txt', '0')
    pid = fork do
      100.times { increment(store) }
      exit!(0)
    end
    100.times { increment(store) }
    expect(Process.wait2(pid).last).to be_success
    expect(store.read('counter.txt')).to eq('200')
  end

  it 'serialises with_lock between 8 threads on one store, and on two stores of one folder' do
    store.write('counter.txt', '0')
    second = described_class.new(@root)
    threads = Array.new(8) { |i| Thread.new { 25.times { increment(i.even? ? store : second) } } }
    threads.each(&:join)
    expect(store.read('counter.txt')).to eq('200')
  end

  it 'is reentrant for the thread that holds the lock, and not for others' do
    store.with_lock do
      store.write('a.txt', 'inside') # takes the lock again: must not deadlock
      waiter = Thread.new { store.write('b.txt', 'waited') }
      expect(waiter.join(0.3)).to be_nil # still waiting for the lock
      expect(store.exist?('b.txt')).to be(false)
      waiter
    end.join
    expect(store.read('b.txt')).to eq('waited')
  end

  it 'releases the lock when the block raises' do
    expect { store.with_lock { raise 'boom' } }.to raise_error('boom')
    expect(Thread.new { store.with_lock { :free } }.value).to eq(:free)
  end

  describe 'long native calls', :heavy do
    let(:big) { File.join(@root, 'big.bin') }

    before do
      FileUtils.mkdir_p(@root)
      File.open(big, 'wb') { |f| f.truncate(1024 * 1024 * 1024) } # sparse: 1 GB to hash, little disk
    end

    it 'let other Ruby threads run meanwhile (the GVL is released)' do
      released, files = GvlProbe.run { described_class.new(@root).list } # hashes 1 GB
      expect(files.map(&:path)).to eq(['big.bin'])
      expect(released).to be(true)
    end

    it 'stop promptly when the thread is killed' do
      fresh = described_class.new(@root)
      worker = Thread.new { fresh.list }
      Thread.pass until worker.status == 'sleep' || !worker.alive? # inside the hash, without the GVL
      started = Process.clock_gettime(Process::CLOCK_MONOTONIC)
      worker.kill
      expect(worker.join(5)).not_to be_nil
      expect(Process.clock_gettime(Process::CLOCK_MONOTONIC) - started).to be < 2
      expect(worker.status).to be(false)
    end

    it 'stop for Timeout, and the store still works after' do
      fresh = described_class.new(@root)
      expect { Timeout.timeout(0.05) { fresh.read('big.bin') } }.to raise_error(Timeout::Error)
      expect(fresh.write('after.txt', 'ok').path).to eq('after.txt')
    end

    it 'can be interrupted while waiting for the lock' do
      holder_ready = Queue.new
      release = Queue.new
      holder = Thread.new do
        store.with_lock do
          holder_ready << true
          release.pop
        end
      end
      holder_ready.pop
      waiter = Thread.new { store.write('x.txt', 'x') }
      Thread.pass until waiter.status == 'sleep' || !waiter.alive? # waiting for the lock
      waiter.kill
      expect(waiter.join(2)).not_to be_nil
      release << true
      holder.join
      expect(store.exist?('x.txt')).to be(false)
      expect(store.write('y.txt', 'y').path).to eq('y.txt') # the lock is free again
    end
  end
end
