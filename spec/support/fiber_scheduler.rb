# frozen_string_literal: true

# A small Fiber scheduler (Fiber::SchedulerInterface, as Ruby's own test
# scheduler and the async gem implement it): non-blocking fibers run on one
# thread, and a fiber that sleeps, waits on a Mutex or Queue, or waits for IO
# lets the others run. Enough to show what a store does when two tool calls
# of one turn are fibers (ruby_llm's concurrency: :fibers with async, or a
# fiber-per-request server such as Falcon) without the async gem.
#
#   Thread.new do
#     Fiber.set_scheduler(FiberScheduler.new)
#     Fiber.schedule { ... }
#     Fiber.schedule { ... }
#   end.join # the scheduler runs the fibers when the thread ends
class FiberScheduler
  def initialize
    @ready = []
    @sleeping = {} # fiber => when it wakes
    @waiting = {} # fiber => [io, events]
    @blocked = {} # fiber => true, until unblocked
    @lock = Thread::Mutex.new
    @unblocked = []
    @wake, @waker = IO.pipe
  end

  def fiber(&)
    fiber = Fiber.new(blocking: false, &)
    fiber.resume
    fiber
  end

  def kernel_sleep(duration = nil)
    duration ? @sleeping[Fiber.current] = now + duration : @blocked[Fiber.current] = true
    Fiber.yield
  end

  def block(_blocker, timeout = nil)
    fiber = Fiber.current
    timeout ? @sleeping[fiber] = now + timeout : @blocked[fiber] = true
    Fiber.yield
  ensure
    @sleeping.delete(fiber)
    @blocked.delete(fiber)
  end

  # May be called from another thread.
  def unblock(_blocker, fiber)
    @lock.synchronize { @unblocked << fiber }
    @waker.write_nonblock('.', exception: false)
  end

  def io_wait(io, events, timeout)
    fiber = Fiber.current
    @waiting[fiber] = [io, events]
    @sleeping[fiber] = now + timeout if timeout
    Fiber.yield
    events
  ensure
    @waiting.delete(fiber)
    @sleeping.delete(fiber)
  end

  # Runs the fibers until none is left waiting; Ruby calls it when the thread ends.
  def close
    run
  ensure
    [@wake, @waker].each(&:close)
  end

  def run
    until @sleeping.empty? && @waiting.empty? && @blocked.empty?
      wait_for_events
      resume_ready
    end
  end

  private

  def now = Process.clock_gettime(Process::CLOCK_MONOTONIC)

  def wait_for_events
    ready_readers, ready_writers = IO.select([@wake, *watched(IO::READABLE)], watched(IO::WRITABLE), [], next_timeout)
    ready = (ready_readers || []) + (ready_writers || [])
    @wake.read_nonblock(1024, exception: false) if ready.include?(@wake)
    @waiting.each { |fiber, (io, _)| @ready << fiber if ready.include?(io) }
    due = now
    @sleeping.each { |fiber, at| @ready << fiber if at <= due }
    @lock.synchronize do
      @ready.concat(@unblocked)
      @unblocked.clear
    end
  end

  def watched(event) = @waiting.filter_map { |_, (io, events)| io if events.anybits?(event) }

  def next_timeout = @sleeping.values.min&.then { |at| [at - now, 0].max }

  def resume_ready
    ready = @ready.uniq
    @ready.clear
    ready.each do |fiber|
      @sleeping.delete(fiber)
      @blocked.delete(fiber)
      fiber.resume if fiber.alive?
    end
  end
end
