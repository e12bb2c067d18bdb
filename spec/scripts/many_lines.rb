# frozen_string_literal: true

# Run by spec/guarantees/many_lines_spec.rb in a fresh Ruby, one case per
# process: a file of +megabytes+ MB of empty lines in a store, read with
# read_file (offset 1, limit 10) through the tools. Prints one JSON line
# with the result's start, the seconds read_file took and the process's
# peak resident memory (VmHWM, MB), so the spec can bound them.
#
#   ruby spec/scripts/many_lines.rb memory 100
#   ruby spec/scripts/many_lines.rb native_utf16 200

$LOAD_PATH.unshift(File.expand_path('../../lib', __dir__))
require 'ruby_llm/file_stores/native'
require 'json'
require 'tmpdir'

def peak_mb = File.read('/proc/self/status')[/VmHWM:\s+(\d+)/, 1].to_i / 1024

mode, megabytes = ARGV
bytes = megabytes.to_i << 20
Dir.mktmpdir('many-lines') do |dir|
  store = case mode
          when 'memory'
            RubyLLM::FileStore::Memory.new.tap { |memory| memory.write('lines.txt', "\n" * bytes) }
          when 'native_utf16'
            # As run_code would leave it: written on disk, past the store's write.
            File.open(File.join(dir, 'lines.txt'), 'wb') do |file|
              file.write("\xFF\xFE".b)
              block = "\n\0".b * (1 << 19)
              (bytes / block.bytesize).times { file.write(block) }
            end
            RubyLLM::NativeDir.new(dir)
          else raise ArgumentError, "unknown case #{mode}"
          end
  GC.start
  read_file = RubyLLM::FileStore::Tools.for(store, tools: %i[read]).find { |tool| tool.name == 'read_file' }
  started = Process.clock_gettime(Process::CLOCK_MONOTONIC)
  result = read_file.call('path' => 'lines.txt', 'offset' => 1, 'limit' => 10)
  seconds = Process.clock_gettime(Process::CLOCK_MONOTONIC) - started
  puts JSON.generate(result: result.to_s[0, 300], seconds: seconds.round(2), peak_mb:)
end
