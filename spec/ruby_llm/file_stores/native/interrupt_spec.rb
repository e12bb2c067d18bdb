# frozen_string_literal: true

# Ctrl-C reaches a long native call made by a lone main thread: the call's
# unblocking function runs from the signal handler (it is async-signal-safe
# and says so), the call stops, and Interrupt is raised in Ruby.
RSpec.describe 'Ctrl-C during a long native call', :native do
  include_context 'in a temporary folder'

  it 'stops hashing a 4 GB file within a second of SIGINT and raises Interrupt' do
    File.open(File.join(@tmp, 'huge.bin'), 'wb') { |f| f.truncate(4 << 30) } # sparse: no disk used
    script = File.expand_path('../../../scripts/interrupt_child.rb', __dir__)
    IO.popen([RbConfig.ruby, script, @tmp], err: %i[child out]) do |child|
      expect(child.gets).to eq("started\n")
      sleep 0.5 # well inside the hash, which takes seconds
      Process.kill(:INT, child.pid)
      result = child.read
      expect(result).to match(/\Ainterrupted after (\d+\.\d+)/)
      expect(result[/\d+\.\d+/].to_f).to be < 1.5, result
    ensure
      Process.kill(:KILL, child.pid) if child && !child.closed? && !Process.waitpid(child.pid, Process::WNOHANG)
    end
  end
end
