# frozen_string_literal: true

# Run by interrupt_spec.rb: the main thread, alone, hashes an 4 GB sparse
# file (one long native call, several seconds) and reports how it ended.
# The parent sends SIGINT while the call runs.

$LOAD_PATH.unshift(File.expand_path('../../lib', __dir__))
require 'ruby_llm/file_stores/native'

store = RubyLLM::NativeDir.new(ARGV.fetch(0))
$stdout.sync = true
puts 'started'
started = Process.clock_gettime(Process::CLOCK_MONOTONIC)
begin
  store.find('huge.bin')
  puts "finished after #{Process.clock_gettime(Process::CLOCK_MONOTONIC) - started}"
rescue Interrupt
  puts "interrupted after #{Process.clock_gettime(Process::CLOCK_MONOTONIC) - started}"
end
