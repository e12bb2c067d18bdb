# frozen_string_literal: true

# Run by spec/guarantees/edit_limits_spec.rb in a fresh Ruby: +files+ files
# of 1,000 newlines in a Memory store, read, then one edit_file call whose
# replace_all edits would grow each to +megabytes+ MB. Prints one JSON line
# with what edit_file answered (its start), the files' sizes after, and the
# process's peak resident memory (VmHWM, MB).
#
#   ruby spec/scripts/edit_total.rb 8 200

$LOAD_PATH.unshift(File.expand_path('../../lib', __dir__))
require 'ruby_llm/file_stores/native'
require 'json'

def peak_mb = File.read('/proc/self/status')[/VmHWM:\s+(\d+)/, 1].to_i / 1024

files, megabytes = ARGV.map(&:to_i)
store = RubyLLM::FileStore::Memory.new
tools = RubyLLM::FileStore::Tools.for(store).to_h { |tool| [tool.name, tool] }
paths = Array.new(files) { |i| "f#{i}.txt" }
paths.each do |path|
  store.write(path, "\n" * 1000)
  tools.fetch('read_file').call('path' => path)
end
growth = "\n" * ((megabytes << 20) / 1000)
edits = paths.map { |path| { 'path' => path, 'old_text' => "\n", 'new_text' => growth, 'replace_all' => true } }
result = begin
  tools.fetch('edit_file').call('edits' => edits)
rescue NoMemoryError => e
  { raised: "#{e.class}: #{e.message}" }
end
puts JSON.generate(result: result.is_a?(Hash) ? result : result.to_s[0, 300],
                   sizes: paths.map { |path| store[path].byte_size }, peak_mb:)
