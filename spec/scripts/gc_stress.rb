# frozen_string_literal: true

# Run by gc_stress_spec.rb in a fresh Ruby (a small heap keeps GC.stress
# fast): every native call with GC.stress on, checking each result. Exits
# non-zero with a message on the first wrong result.

$LOAD_PATH.unshift(File.expand_path('../../lib', __dir__))
require 'ruby_llm/file_stores/native'
require 'digest'
require 'stringio'
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

# Every tool, through the native calls behind it.
def check_tools(store)
  tools = RubyLLM::FileStore::Tools.for(store, tools: %i[read write edit delete]).to_h { |t| [t.name, t] }
  check('write_file', tools['write_file'].call('path' => 't/a.md', 'content' => "one\ntwo\n"),
        'Created t/a.md (2 lines, 8 bytes).')
  check('read_file', tools['read_file'].call('path' => 't/a.md', 'offset' => 2), "two\n[Lines 2-2 of 2 in t/a.md.]")
  check('edit_file', tools['edit_file'].call('path' => 't/a.md', 'old_text' => 'two', 'new_text' => 'three'),
        'Edited t/a.md (1 replacement).')
  check('search_files', tools['search_files'].call('pattern' => 'THREE', 'path' => 't'), "t/a.md:2:three\n")
  check('list_files', tools['list_files'].call('glob' => 't/*.md'), "t/a.md (text/markdown, 10 bytes)\n")
  check('delete_file', tools['delete_file'].call('path' => 't/a.md'), 'Deleted t/a.md.')
end

# Loading code under GC.stress takes minutes: load it all first, with one
# unstressed round of the tools.
check_tools(RubyLLM::FileStore::Memory.new)
Dir.mktmpdir('gc-warm') { |dir| check_tools(RubyLLM::NativeDir.new(dir)) }
Digest::SHA256.hexdigest('warm')

Dir.mktmpdir('gc-stress') do |dir|
  GC.stress = true
  store = RubyLLM::NativeDir.new(File.join(dir, 'store'))
  3.times { |i| store.write("notes/n#{i}.md", "# Note #{i}\n" * 3) }
  check('list', store.list.map(&:path), %w[notes/n0.md notes/n1.md notes/n2.md])
  check('digest', store.find('notes/n1.md').digest, Digest::SHA256.hexdigest("# Note 1\n" * 3))
  check('read', store.read('notes/n2.md'), "# Note 2\n" * 3)
  check('[]', store['missing.md'], nil)
  streamed = "# Streamed\n" * 300
  check('write of an IO', store.write('notes/io.md', StringIO.new(streamed)).digest, Digest::SHA256.hexdigest(streamed))
  chunks = []
  store.each_chunk('notes/io.md') { |chunk| chunks << chunk.dup }
  check('each_chunk', chunks.join, streamed)
  store.delete('notes/io.md')
  raises('bad path', ArgumentError) { store.read('../x') }
  raises('missing', RubyLLM::FileNotFoundError) { store.read('missing') }
  raises('panic', RubyLLM::FileStore::InternalError) { RubyLLM::FileStores::Native.panic_for_tests }

  native = RubyLLM::FileStores::Native
  edits = native.apply_edits('a b a', [{ old_text: 'a', new_text: 'x', replace_all: true },
                                       { old_text: 'b', new_text: 'y', replace_all: false }])
  GC.start
  check('edits', [edits.applied?, edits.content, edits.counts], [true, 'x y x', [2, 1]])
  ambiguous = native.apply_edits('a a', [{ old_text: 'a', new_text: 'x', replace_all: false }])
  check('ambiguous', [ambiguous.failure, ambiguous.index, ambiguous.count], [:ambiguous, 0, 2])
  request = { pattern: 'b', case_sensitive: false, context: 0, files_only: false, max_matches: 100,
              max_chars: 20_000, timeout: 10.0 }
  text_search = native::TextSearch.start(request)
  text_search.feed({ 'x.md' => "a\nb\n", 'y.pdf' => nil })
  text_search.stream_start('z.log')
  ["a\nb", " streamed\nc\n", 'b last'].each { |chunk| text_search.stream_push(chunk) }
  text_search.stream_finish
  check('text search', text_search.finish.text,
        "x.md:2:b\nz.log:2:b streamed\nz.log:4:b last\n" \
        "Skipped 1 file with no extracted text: y.pdf. Read them with read_file first.\n")
  # Frozen texts of their own buffer are searched in place, without a copy,
  # while other threads run: compacting meanwhile must not move them.
  texts = Array.new(130) { |i| [format('t%03d.md', i), "#{"x\n" * 20}b #{i}\n".freeze] }.to_h
  compactor = Thread.new { 20.times { GC.compact } }
  borrowed = native::TextSearch.start(request.merge(max_matches: nil, max_chars: nil))
  borrowed.feed(texts)
  compactor.join
  check('borrowed text search', borrowed.finish.text, texts.map { |path, _| "#{path}:21:b #{path[1..].to_i}\n" }.join)
  check('normalize', native.normalize_path('./a//b'), 'a/b')
  check('content type', native.content_type_for('scan', "%PDF-1.7\n"), 'application/pdf')

  check('normalize folder', native.normalize_folder('./a//'), 'a')
  check('hidden', [native.hidden_path?('a/.git/x'), native.hidden_path?('a/b')], [true, false])
  check('text type', [native.text_content_type?('text/markdown'), native.text_content_type?('image/png')],
        [true, false])
  check('sha256', native.sha256_hex('abc'), Digest::SHA256.hexdigest('abc'))
  wide = "\xFF\xFEa\0\n\0b\0".b
  check('file line window', native.file_line_window(wide, { offset: 2, limit: nil, max_chars: nil }).to_h,
        { text: 'b', shown: 1, total: 2, cut: false, digest: Digest::SHA256.hexdigest(wide) })
  check('text line window', native.text_line_window("a\nb\n", { offset: 1, limit: 1, max_chars: nil }).text, "a\n")
  capped = native.apply_edits_within('aa', [{ old_text: 'a', new_text: 'aaaa', replace_all: true }], 4)
  check('edits within', [capped.failure, capped.size], [:too_large, 8])
  check('glob', native.glob_filter('*.md', '', '', %w[a.md b/c.md d.txt]), %w[a.md b/c.md])
  check('office format', native.office_format('deck.pptx', ''), 'powerpoint')
  check('office text of nothing', native.office_to_text('plain', 'a.txt', 'text/plain'), nil)
  raises('office corrupt', RubyLLM::FileStore::ConversionError) { native.office_to_text('PK', 'a.docx', '') }
  check('store search', RubyLLM::FileStore::Search.run(store, 'note 1', files_only: true), "notes/n1.md\n")
  check('root', store.local_root, File.realpath(File.join(dir, 'store')))
  check('max_bytes', [store.max_bytes, store.total_size], [nil, 81])
  check('locked_by?', store.with_lock { store.instance_variable_get(:@core).locked_by?(Fiber.current.object_id) }, true)
  core = store.instance_variable_get(:@core)
  check('try_lock', [core.try_lock(7), core.unlock(7)], [true, true])
  check('files needing text', store.instance_variable_get(:@core).files_needing_text('', nil, ''), [])
  check_tools(store)
  check_tools(RubyLLM::FileStore::Memory.new)

  check('delete', store.delete('notes/n0.md')&.path, 'notes/n0.md')
  check('delete_folder', store.delete_folder('notes').map(&:path), %w[notes/n1.md notes/n2.md])
  check('with_lock', store.with_lock { store.total_size }, 0)
  GC.stress = false
end
puts 'gc stress: all native calls gave intact results'
