# frozen_string_literal: true

# Run by spec/guarantees/hostile_content_spec.rb in a fresh Ruby, one case
# per process: builds a hostile file in a temporary store, gives it to the
# tools, and prints one JSON line with what the model would see (cut) and
# the process's peak resident memory (VmHWM, MB), so the spec can bound it.
#
#   ruby spec/scripts/hostile_content.rb sparse_2g_read

$LOAD_PATH.unshift(File.expand_path('../../lib', __dir__))
require 'ruby_llm/file_stores/native'
require 'json'
require 'tmpdir'
require 'zlib'

def peak_mb = File.read('/proc/self/status')[/VmHWM:\s+(\d+)/, 1].to_i / 1024

# A .docx whose word/document.xml inflates from a few hundred KB to
# +megabytes+ MB of paragraphs; with +lie+, its headers claim 1 KB.
def zip_bomb(megabytes, lie: false)
  paragraph = '<w:p><w:r><w:t>boom</w:t></w:r></w:p>' * 1000
  deflate = Zlib::Deflate.new(Zlib::BEST_COMPRESSION, -Zlib::MAX_WBITS)
  crc = 0
  packed = +''.b
  size = 0
  while size < megabytes << 20
    crc = Zlib.crc32(paragraph, crc)
    packed << deflate.deflate(paragraph)
    size += paragraph.bytesize
  end
  packed << deflate.finish
  types = '<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">' \
          '<Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.' \
          'wordprocessingml.document.main+xml"/></Types>'
  zip([['[Content_Types].xml', 0, types, Zlib.crc32(types), types.bytesize],
       ['word/document.xml', 8, packed, crc, lie ? 1024 : size]])
end

def zip(entries)
  out = +''.b
  central = +''.b
  entries.each do |name, method, data, crc, size|
    central << [0x02014b50, 20, 20, 0, method, 0, 0, crc, data.bytesize, size, name.bytesize, 0, 0, 0, 0, 0,
                out.bytesize].pack('VvvvvvvVVVvvvvvVV') << name
    out << [0x04034b50, 20, 0, method, 0, 0, crc, data.bytesize, size, name.bytesize, 0].pack('VvvvvvVVVvv')
    out << name << data
  end
  zip_end(out, central, entries.size)
end

def zip_end(out, central, count)
  start = out.bytesize
  out << central << [0x06054b50, 0, 0, count, count, central.bytesize, start, 0].pack('VvvvvVVv')
end

# A file of +megabytes+ MB with one line, and a needle at its end.
def one_line(path, megabytes)
  block = 'x' * (1 << 20)
  File.open(path, 'wb') do |f|
    megabytes.times { f.write(block) }
    f.write('needle')
  end
end

CASES = {
  'sparse_2g_read' => lambda do |dir, tools|
    File.open(File.join(dir, 'big.log'), 'wb') do |f|
      f.write((1..50).map { |i| "line #{i}\n" }.join)
      f.truncate(2 << 30) # 2 GB, almost all of it a hole
    end
    tools['read_file'].call('path' => 'big.log', 'limit' => 20)
  end,
  'sparse_2g_search' => lambda do |dir, tools|
    File.open(File.join(dir, 'big.log'), 'wb') { |f| f.write("needle\n" * 50) && f.truncate(2 << 30) }
    tools['search_files'].call('pattern' => 'needle', 'files_only' => true)
  end,
  'one_line_read' => lambda do |dir, tools|
    one_line(File.join(dir, 'line.txt'), 100)
    tools['read_file'].call('path' => 'line.txt')
  end,
  'one_line_search' => lambda do |dir, tools|
    one_line(File.join(dir, 'line.txt'), 100)
    tools['search_files'].call('pattern' => 'needle')
  end,
  'invalid_utf8' => lambda do |dir, tools|
    File.binwrite(File.join(dir, 'bad.txt'), "caf\xC3\xA9 \xFF\xFE\xC0\xAF needle \xED\xA0\x80\n".b * 3)
    [tools['read_file'].call('path' => 'bad.txt'), tools['search_files'].call('pattern' => 'needle')]
  end,
  'utf16' => lambda do |dir, tools|
    File.binwrite(File.join(dir, 'wide.txt'), "\uFEFFfirst line\nthe needle \u00e9\n".encode('UTF-16LE').b)
    [tools['read_file'].call('path' => 'wide.txt'), tools['search_files'].call('pattern' => 'needle')]
  end,
  'slow_regex' => lambda do |dir, tools|
    File.write(File.join(dir, 'a.txt'), "#{'a' * 100_000}!\n#{'x' * 50_000}\n" * 20)
    ['(a+)+$', '(x+x+)+y', '(a|aa)+b', '(.*a){20}', '^(([a-z])+.)+[A-Z]([a-z])+$'].map do |pattern|
      tools['search_files'].call('pattern' => pattern, 'files_only' => true)
    end
  end,
  'huge_regex' => lambda do |dir, tools|
    File.write(File.join(dir, 'a.txt'), "a\n")
    # Short patterns that compile past the engine's size limit; a long one is
    # refused by its length first (spec/guarantees/panics_spec.rb).
    ['\w{1000}{1000}', '\pL{100000}'].map do |pattern|
      tools['search_files'].call('pattern' => pattern)
    end
  end,
  'lone_surrogate' => lambda do |dir, tools|
    File.write(File.join(dir, 'a.txt'), "a\n")
    pattern = JSON.parse('["\\udc00x"]').first # what a model's JSON can carry
    [tools['search_files'].call('pattern' => pattern), tools['list_files'].call('glob' => pattern)]
  end,
  'zip_bomb' => lambda do |_dir, tools|
    store = tools['read_file'].store
    store.write('bomb.docx', zip_bomb(64))
    store.write('liar.docx', zip_bomb(64, lie: true))
    %w[bomb.docx liar.docx].flat_map do |path|
      [begin
        store.text(path)
      rescue RubyLLM::FileStore::ConversionError => e
        { error: "#{e.class}: #{e.message}" }
      end, tools['read_file'].call('path' => path)]
    end
  end
}.freeze

name = ARGV.fetch(0)
Dir.mktmpdir('hostile-content') do |dir|
  store = RubyLLM::NativeDir.new(dir)
  tools = RubyLLM::FileStore::Tools.for(store, tools: %i[read write edit], search_timeout: 20).to_h { |t| [t.name, t] }
  started = Process.clock_gettime(Process::CLOCK_MONOTONIC)
  result = CASES.fetch(name).call(dir, tools)
  seconds = Process.clock_gettime(Process::CLOCK_MONOTONIC) - started
  # Long results are shown by their start and end, with their length.
  shown = Array(result).map { |r| r.is_a?(String) && r.size > 3000 ? "#{r[0, 1000]}[#{r.size} chars]#{r[-1000..]}" : r }
  puts JSON.generate(case: name, results: shown, peak_mb:, seconds: seconds.round(2))
end
