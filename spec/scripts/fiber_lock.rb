# frozen_string_literal: true

# Run by spec/guarantees/fiber_lock_spec.rb in a fresh Ruby: two tool calls
# of one turn as fibers under a Fiber scheduler (spec/support/fiber_scheduler.rb)
# on one NativeDir. The first holds the folder's lock and sleeps, as run_code
# in place does while its code runs; the second calls write_file (or
# edit_file, delete_file; write_io: the store's write of an IO) meanwhile. Prints one JSON line: the order things
# happened in, what each tool answered, and the seconds it all took. A
# watchdog thread ends the process with "stuck" when the fibers deadlock.
#
#   ruby spec/scripts/fiber_lock.rb write_file

$LOAD_PATH.unshift(File.expand_path('../../lib', __dir__))
require 'ruby_llm/file_stores/native'
require 'json'
require 'stringio'
require 'tmpdir'
require_relative '../support/fiber_scheduler'

tool_name = ARGV.fetch(0)
Thread.new do
  sleep 20
  puts JSON.generate(stuck: true)
  $stdout.flush
  exit!(3)
end

Dir.mktmpdir('fiber-lock') do |dir|
  store = RubyLLM::NativeDir.new(dir)
  store.write('plan.md', "# Plan\n")
  tools = RubyLLM::FileStore::Tools.for(store, tools: %i[read write edit delete]).to_h { |tool| [tool.name, tool] }
  tools.fetch('read_file').call('path' => 'plan.md')
  arguments = { 'write_file' => { 'path' => 'notes.md', 'content' => "two\n" },
                'edit_file' => { 'path' => 'plan.md', 'old_text' => '# Plan', 'new_text' => '# Plan B' },
                'delete_file' => { 'path' => 'plan.md' }, 'write_io' => nil }.fetch(tool_name)
  events = []
  results = {}
  started = Process.clock_gettime(Process::CLOCK_MONOTONIC)
  Thread.new do
    Fiber.set_scheduler(FiberScheduler.new)
    Fiber.schedule do
      store.with_lock do
        events << :holder_locked
        sleep 0.5 # the scheduler runs the other fiber meanwhile
        events << :holder_done
      end
    end
    Fiber.schedule do
      events << :caller_calls
      results[tool_name] = if tool_name == 'write_io'
                             "Created #{store.write('notes.md', StringIO.new("two\n")).path}"
                           else
                             tools.fetch(tool_name).call(arguments)
                           end
      events << :caller_done
    end
  end.join
  seconds = Process.clock_gettime(Process::CLOCK_MONOTONIC) - started
  puts JSON.generate(events:, results:, files: store.list.map(&:path).sort, seconds: seconds.round(2))
end
