# frozen_string_literal: true

# Run by search_spec.rb in a fresh Ruby: searches a file far larger than the
# memory it may use, and prints the process's peak resident set (VmHWM, kB)
# before and after, so the spec can check memory stays flat in file size.

$LOAD_PATH.unshift(File.expand_path('../../lib', __dir__))
require 'ruby_llm/file_stores/native'
require 'tmpdir'

def peak_kb = File.read('/proc/self/status')[/VmHWM:\s+(\d+)/, 1].to_i

megabytes = Integer(ARGV.fetch(0, '400'))
Dir.mktmpdir('search-memory') do |dir|
  line = "#{'lorem ipsum dolor sit amet ' * 3}\n"
  block = line * (1024 * 1024 / line.bytesize)
  File.open(File.join(dir, 'huge.log'), 'wb') { |f| megabytes.times { f.write(block) } }
  File.open(File.join(dir, 'huge.log'), 'ab') { |f| f.write("the needle at the end\n") }
  store = RubyLLM::NativeDir.new(dir)
  GC.start
  before = peak_kb
  result = RubyLLM::FileStore::Search.run(store, 'needle', max_matches: nil, max_chars: nil, timeout: 120)
  after = peak_kb
  puts "result: #{result.lines.first}"
  puts "peak_kb_before: #{before}"
  puts "peak_kb_after: #{after}"
end
