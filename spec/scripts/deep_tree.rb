# frozen_string_literal: true

# Run by spec/guarantees/deep_trees_spec.rb in a fresh Ruby, so that a stack
# overflow (SIGSEGV) fails the spec instead of ending the suite. Builds a
# tree of LEVELS nested folders in a store, step by step (each folder made
# relative to the last, so no path the system takes needs to be that long),
# as code or another process could; then lists, searches, sizes and deletes
# it on a Ruby thread (a small stack, as in Puma), and prints one JSON line
# with what each step gave.
#
#   ruby spec/scripts/deep_tree.rb 3000

$LOAD_PATH.unshift(File.expand_path('../../lib', __dir__))
require 'ruby_llm/file_stores/native'
require 'json'
require 'rbconfig'
require 'tmpdir'

levels = Integer(ARGV.fetch(0, '3000'))

dir = Dir.mktmpdir
begin
  root = File.join(dir, 'store')
  store = RubyLLM::NativeDir.new(root)
  # A child makes the tree, so this process never changes its own folder.
  built = system(RbConfig.ruby, '-e', <<~RUBY, chdir: root)
    #{levels}.times { Dir.mkdir('d'); Dir.chdir('d') }
    File.write('deep.txt', "needle down here\n")
  RUBY
  raise 'could not build the tree' unless built

  store.write('d/near.txt', "needle near the top\n")
  tools = RubyLLM::FileStore::Tools.for(store).to_h { |t| [t.name, t] }
  capped = RubyLLM::NativeDir.new(root, max_bytes: 1 << 20)
  results = Thread.new do
    {
      list: store.list.map(&:path),
      listing_deep: store.listing.deep.map { |path| path.count('/') + 1 },
      list_files: tools['list_files'].call({}),
      search_files: tools['search_files'].call({ 'pattern' => 'needle' }),
      total_size: store.total_size,
      capped_write: capped.write('e.txt', 'e').path,
      store_delete_folder: store.delete_folder('d').map(&:path),
      after: store.list.map(&:path),
      deep_file_kept: File.exist?(File.join(root, 'd', 'd'))
    }
  end.value
  puts JSON.generate(results)
ensure
  system('rm', '-rf', dir) # FileUtils recurses once per level, and overflows Ruby's stack
end
