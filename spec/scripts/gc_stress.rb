# frozen_string_literal: true

# Run by gc_stress_spec.rb in a fresh Ruby (a small heap keeps GC.stress
# fast): every native call with GC.stress on, checking each result. Exits
# non-zero with a message on the first wrong result.

$LOAD_PATH.unshift(File.expand_path('../../lib', __dir__))
require 'ruby_llm/file_stores/native'
require 'digest'
require 'tmpdir'

def check(label, actual, expected)
  return if actual == expected

  warn "#{label}: expected #{expected.inspect}, got #{actual.inspect}"
  exit 1
end

def raises(label, error)
  yield
  warn "#{label}: raised nothing"
  exit 1
rescue error => e
  e.message
end

Dir.mktmpdir('gc-stress') do |dir|
  GC.stress = true
  store = RubyLLM::NativeDir.new(File.join(dir, 'store'))
  3.times { |i| store.write("notes/n#{i}.md", "# Note #{i}\n" * 3) }
  check('list', store.list.map(&:path), %w[notes/n0.md notes/n1.md notes/n2.md])
  check('digest', store.find('notes/n1.md').digest, Digest::SHA256.hexdigest("# Note 1\n" * 3))
  check('read', store.read('notes/n2.md'), "# Note 2\n" * 3)
  check('[]', store['missing.md'], nil)
  raises('bad path', ArgumentError) { store.read('../x') }
  raises('missing', RubyLLM::FileNotFoundError) { store.read('missing') }
  raises('panic', RubyLLM::FileStore::InternalError) { RubyLLM::FileStores::Native.panic_for_tests }

  native = RubyLLM::FileStores::Native
  check('edits', native.apply_edits('a b a', [['a', 'x', true], ['b', 'y', false]]), [:ok, 'x y x', [2, 1]])
  check('ambiguous', native.apply_edits('a a', [['a', 'x', false]]), [:ambiguous, 0, 2])
  text_search = native::TextSearch.start('b', '', nil, [false, 0, false, 100, 20_000, 10.0])
  text_search.feed([['x.md', "a\nb\n"], ['y.pdf', nil]])
  check('text search', text_search.finish,
        "x.md:2:b\nSkipped 1 file with no extracted text: y.pdf. Read them with read_file first.\n")
  check('normalize', native.normalize_path('./a//b'), 'a/b')
  check('content type', native.content_type_for('scan', "%PDF-1.7\n"), 'application/pdf')

  check('delete', store.delete('notes/n0.md')&.path, 'notes/n0.md')
  check('delete_folder', store.delete_folder('notes').map(&:path), %w[notes/n1.md notes/n2.md])
  check('with_lock', store.with_lock { store.total_size }, 0)
  GC.stress = false
end
puts 'gc stress: all native calls gave intact results'
