# frozen_string_literal: true

require_relative 'guarantee_helpers'

# Guarantee: NativeDir's lock does not deadlock under a Fiber scheduler. Two
# tool calls of one turn as fibers of one thread (ruby_llm's concurrency:
# :fibers with the async gem, a fiber-per-request server such as Falcon):
# the first holds the folder's lock and sleeps, as run_code in place does
# while its code runs; the second calls a tool that changes a file. Each case
# runs in its own Ruby (spec/scripts/fiber_lock.rb) with a real scheduler
# (spec/support/fiber_scheduler.rb) and a watchdog. The old build waited for
# the lock in native code, blocking the thread, so the holder never resumed:
# every case hung until the watchdog ended it at 20 s.
RSpec.describe 'Guarantee: the folder lock waits through a Fiber scheduler', :native do
  {
    'write_file' => ['Created notes.md', ['notes.md', 'plan.md']],
    'edit_file' => ['Edited plan.md (1 replacement).', ['plan.md']],
    'delete_file' => ['Deleted plan.md', []],
    'write_io' => ['Created notes.md', ['notes.md', 'plan.md']]
  }.each do |tool, (answer, files)|
    it "lets #{tool} in one fiber wait for the lock another fiber holds, and both finish" do
      outcome = GuaranteeHelpers.run_script('fiber_lock.rb', tool, memory_cap: 1 << 30)
      expect(outcome[:stuck]).to be_nil, 'the fibers deadlocked'
      expect(outcome[:status]).to be_success, outcome[:output][-2000..] || outcome[:output]
      expect(outcome[:events]).to eq(%w[holder_locked caller_calls holder_done caller_done])
      expect(outcome[:results][tool.to_sym]).to start_with(answer)
      expect(outcome[:files]).to eq(files)
      expect(outcome[:seconds]).to be < 10
    end
  end
end
