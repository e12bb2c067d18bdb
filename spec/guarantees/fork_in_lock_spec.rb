# frozen_string_literal: true

require 'io/wait'
require 'rbconfig'
require 'tmpdir'

# Guarantee (issue #26, 11): a killed process does not keep the folder's
# lock, even when it forked a child inside with_lock that lives on. The old
# build's child inherited the locked descriptor, and the folder stayed
# locked for as long as the child lived.
RSpec.describe 'Guarantee: a killed holder does not keep the lock through a child it forked', :native do
  let(:script) { File.expand_path('../scripts/fork_in_lock.rb', __dir__) }

  def alive?(pid)
    Process.kill(0, pid)
    true
  rescue Errno::ESRCH
    false
  end

  it 'lets another process take the lock while the child still lives' do
    Dir.mktmpdir('fork-in-lock') do |root|
      stdin, feed = IO.pipe
      out, out_w = IO.pipe
      holder = Process.spawn(RbConfig.ruby, script, root, in: stdin, out: out_w, rlimit_as: 2 << 30)
      [stdin, out_w].each(&:close)
      raise 'the holder did not take the lock within 30 s' unless out.wait_readable(30)

      child = Integer(out.gets[/\Aholding (\d+)/, 1])
      Process.kill('KILL', holder)
      Process.wait(holder)
      expect(alive?(child)).to be(true)

      store = RubyLLM::NativeDir.new(root)
      taken = Thread.new { store.with_lock { :taken } }
      # Bounded: should the child keep the lock, killing it below frees the thread.
      expect(taken.join(10)&.value).to eq(:taken)
      expect(alive?(child)).to be(true) # it lived while the lock was taken
    ensure
      feed&.close
      Process.kill('KILL', child) if child && alive?(child)
      taken&.join
    end
  end
end
