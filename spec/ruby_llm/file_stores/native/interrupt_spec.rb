# frozen_string_literal: true

# Ctrl-C reaches a long native call made by a lone main thread: the call's
# unblocking function runs from the signal handler (it is async-signal-safe
# and says so), the call stops, and Interrupt is raised in Ruby.
RSpec.describe 'Ctrl-C during a long native call', :native do
  include_context 'in a temporary folder'

  # What the process has read so far (Linux's /proc/PID/io), or 0 before it
  # can be told.
  def bytes_read(pid)
    File.read("/proc/#{pid}/io")[/^rchar: (\d+)/, 1].to_i
  rescue Errno::ENOENT, Errno::EACCES
    0
  end

  it 'stops hashing a 4 GB file within a second of SIGINT and raises Interrupt' do
    File.open(File.join(@tmp, 'huge.bin'), 'wb') { |f| f.truncate(4 << 30) } # sparse: no disk used
    script = File.expand_path('../../../scripts/interrupt_child.rb', __dir__)
    IO.popen([RbConfig.ruby, script, @tmp], err: %i[child out]) do |child|
      expect(child.gets).to eq("started\n")
      # Inside the hash once the child has read 64 MB of the file (of 4 GB).
      give_up = Process.clock_gettime(Process::CLOCK_MONOTONIC) + 60
      until bytes_read(child.pid) > (64 << 20)
        raise 'the child never started hashing' if Process.clock_gettime(Process::CLOCK_MONOTONIC) > give_up

        Thread.pass
      end
      signalled = Process.clock_gettime(Process::CLOCK_MONOTONIC)
      Process.kill(:INT, child.pid)
      result = child.read
      expect(result).to start_with('interrupted after')
      expect(Process.clock_gettime(Process::CLOCK_MONOTONIC) - signalled).to be < 1.5, result
    ensure
      Process.kill(:KILL, child.pid) if child && !child.closed? && !Process.waitpid(child.pid, Process::WNOHANG)
    end
  end
end
