# frozen_string_literal: true

# Run by spec/guarantees/fork_in_lock_spec.rb: takes the lock of the store
# in ARGV[0], forks a child inside with_lock (which lives until its standard
# input closes), prints "holding <child pid>" and waits to be killed.
#
#   ruby spec/scripts/fork_in_lock.rb /tmp/store

$LOAD_PATH.unshift(File.expand_path('../../lib', __dir__))
require 'ruby_llm/file_stores/native'

store = RubyLLM::NativeDir.new(ARGV.fetch(0))
store.with_lock do
  child = fork do
    $stdin.read
    exit!(0)
  end
  $stdout.puts "holding #{child}"
  $stdout.flush
  sleep
end
