# frozen_string_literal: true

# Run by spec/guarantees/panics_spec.rb in a fresh Ruby, so that a panic
# that ends the process (`fatal`) fails the spec instead of ending the
# suite. Gives every way in for a glob or a pattern one far over its cap,
# and one at the cap built to compile large, and prints one JSON line with
# what each gave: the tool's answer, or the class and message raised.
#
#   ruby spec/scripts/huge_patterns.rb

$LOAD_PATH.unshift(File.expand_path('../../lib', __dir__))
require 'ruby_llm/file_stores/native'
require 'json'
require 'tmpdir'

def outcome
  result = yield
  result.is_a?(Hash) ? result : { value: result.to_s[0, 300] }
rescue Exception => e # rubocop:disable Lint/RescueException -- what reached Ruby is the point
  { raised: e.class.name, message: e.message[0, 300] }
end

huge_glob = '*' * 100_000
huge_pattern = 'a' * 100_000
at_cap = '*' * 4096 # MAX_GLOB_BYTES
results = {}
Dir.mktmpdir do |dir|
  native = RubyLLM::NativeDir.new(dir)
  memory = RubyLLM::FileStore::Memory.new
  [native, memory].each { |store| store.write('notes/a.md', "alpha\n") }
  { native:, memory: }.each do |name, store|
    tools = RubyLLM::FileStore::Tools.for(store).to_h { |t| [t.name, t] }
    results[:"#{name}_list_glob"] = outcome { tools['list_files'].call({ 'glob' => huge_glob }) }
    results[:"#{name}_search_glob"] = outcome { tools['search_files'].call({ 'pattern' => 'a', 'glob' => huge_glob }) }
    results[:"#{name}_search_pattern"] = outcome { tools['search_files'].call({ 'pattern' => huge_pattern }) }
    results[:"#{name}_glob_at_cap"] = outcome { tools['list_files'].call({ 'glob' => at_cap }) }
    results[:"#{name}_store_search"] = outcome { RubyLLM::FileStore::Search.run(store, 'a', glob: huge_glob) }
  end
  results[:glob_filter] = outcome { RubyLLM::FileStores::Native.glob_filter(huge_glob, '', '', ['a.md']) }
  results[:panic] = outcome { RubyLLM::FileStores::Native.panic_for_tests }
end
puts JSON.generate(results)
