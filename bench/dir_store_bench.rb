# frozen_string_literal: true

# RubyLLM::NativeDir against PlainRubyDirStore (bench/plain_ruby_dir_store.rb),
# a folder store written the obvious way in plain Ruby, timed side by side in
# one run:
#
#   (a) list of a 20,000-file tree, cold: a new NativeDir each repetition, so
#       its digest cache is empty and every file is read and hashed;
#   (b) list of the same tree with digests cached: one NativeDir listed again
#       (the plain-Ruby store has no cache and hashes everything each time,
#       which is what the obvious implementation does);
#   (c) write of 1,000 small files into a fresh folder each repetition, against
#       plain File.binwrite and against a plain-Ruby temp file + fsync + rename
#       (what NativeDir does);
#   (d) read of a 100 MB file.
#
# The list cases are also run against the plain-Ruby store hashing with
# OpenSSL::Digest::SHA256 instead of Digest::SHA256: on some Rubies (Debian's
# among them) Digest::SHA256 is a portable C implementation several times
# slower than OpenSSL's, and that alone moves the list ratios a lot. The list
# target is judged against the obvious Digest::SHA256 store.
#
# Each case reports the median of several repetitions (CLOCK_MONOTONIC), the
# two sides run alternately. The page cache is warm throughout: "cold" means a
# cold digest cache, not a cold page cache. The corpus lives in a
# Dir.mktmpdir removed at the end.
#
# Usage, from the repository root after `rake compile`:
#
#   ruby -Ilib bench/dir_store_bench.rb     (or: rake bench)
#
# Environment: BENCH_FILES (20000), BENCH_BIG_MB (100), BENCH_TMPDIR (the
# system temp dir; pick one on the disk you care about).

lib = File.expand_path('../lib', __dir__)
$LOAD_PATH.unshift(lib) unless $LOAD_PATH.include?(lib)

require 'etc'
require 'fileutils'
require 'openssl'
require 'tmpdir'
require 'ruby_llm/file_stores/native'
require_relative 'plain_ruby_dir_store'

# Builds the corpus on disk.
module DirStoreCorpus
  EXTENSIONS = ['.md', '.rb', '.json', '.csv', '.txt', ''].freeze
  TEXT = ([*'a'..'z', *'A'..'Z', *'0'..'9'] + ([' '] * 12) + (["\n"] * 2)).freeze

  module_function

  # 8 top folders x 5 x 5: 248 folders three levels deep, plus the root.
  def folders
    @folders ||= [''] + (0...8).flat_map do |a|
      top = "area#{a}"
      [top] + (0...5).flat_map do |b|
        mid = "#{top}/part#{b}"
        [mid] + (0...5).map { |c| "#{mid}/leaf#{c}" }
      end
    end
  end

  # Printable text to slice file contents from, so extensionless files sniff
  # as text/plain in both stores.
  def text(random, bytes)
    Array.new(bytes) { TEXT.sample(random:) }.join
  end

  # Writes +count+ files with sizes log-uniform between 100 B and 20 KB (most
  # small, a few large), each starting with its own path so no two are alike.
  # Returns [file count, total bytes].
  def build_tree(root, count, random)
    pool = text(random, 64 * 1024)
    total = (0...count).sum do |i|
      rel = "#{folders[i % folders.size]}/file#{format('%05d', i)}#{EXTENSIONS[i % EXTENSIONS.size]}"
      write_file(File.join(root, rel.delete_prefix('/')), pool, (100 * (200**random.rand)).to_i, random)
    end
    add_hidden_and_links(root)
    [count, total]
  end

  def write_file(path, pool, bytes, random)
    FileUtils.mkdir_p(File.dirname(path))
    File.binwrite(path, "#{path}\n#{pool.byteslice(random.rand(pool.bytesize - bytes), bytes)}")
  end

  # Things both stores must leave out: dot files, dot folders, symlinks to a
  # file and to a folder.
  def add_hidden_and_links(root)
    File.binwrite(File.join(root, '.DS_Store'), 'hidden')
    FileUtils.mkdir_p(File.join(root, '.git/objects'))
    File.binwrite(File.join(root, '.git/objects/blob'), 'hidden too')
    File.binwrite(File.join(root, 'area0/.env'), 'SECRET=1')
    File.symlink(File.join(root, 'file00000.md'), File.join(root, 'area1/link_to_file.md'))
    File.symlink(File.join(root, 'area2'), File.join(root, 'area3/link_to_folder'))
  end

  def build_big(path, megabytes, random)
    File.open(path, 'wb') do |f|
      megabytes.times { f.write(random.bytes(1024 * 1024)) }
    end
  end

  # 1,000 small files (100 B - 2 KB) over 10 folders: [relative path, bytes].
  def write_batch(random, count = 1_000)
    pool = text(random, 16 * 1024)
    Array.new(count) do |i|
      bytes = 100 + random.rand(1_900)
      ["d#{i % 10}/note#{format('%04d', i)}#{EXTENSIONS[i % EXTENSIONS.size]}",
       pool.byteslice(random.rand(pool.bytesize - bytes), bytes)]
    end
  end
end

# Compares two stores' StoredFiles.
module DirStoreCheck
  module_function

  # Raises unless paths, sizes and digests agree; returns a note when content
  # types differ, else nil.
  def same_files(what, native, plain)
    key = ->(f) { [f.path, f.byte_size, f.digest] }
    native_keys = native.map(&key)
    plain_keys = plain.map(&key)
    unless native_keys == plain_keys
      diff = (native_keys - plain_keys).first(3) + (plain_keys - native_keys).first(3)
      raise "#{what}: NativeDir (#{native.size} files) and PlainRubyDirStore (#{plain.size}) disagree: #{diff.inspect}"
    end

    type_note(what, native, plain)
  end

  def type_note(what, native, plain)
    types = native.zip(plain).reject { |n, p| n.content_type == p.content_type }
    return if types.empty?

    "#{what}: #{types.size} content types differ, e.g. #{types.first.map(&:content_type).inspect} " \
      "for #{types.first.first.path}"
  end
end

# Times the two sides of a case and prints the table.
class DirStoreTable
  Row = Struct.new(:name, :native_ms, :plain_ms) do
    def ratio = plain_ms / native_ms
  end

  attr_reader :rows, :notes

  def initialize
    @rows = []
    @notes = []
  end

  def self.now
    Process.clock_gettime(Process::CLOCK_MONOTONIC)
  end

  # Seconds taken by the block, after a GC so one store's garbage is not
  # collected on the other's clock.
  def self.timed
    GC.start
    started = now
    yield
    now - started
  end

  # Runs the two sides (callables returning seconds) alternately, native
  # first on even repetitions and plain first on odd ones; records medians.
  def compare(name, reps, native:, plain:)
    times = { native: [], plain: [] }
    reps.times do |rep|
      order = rep.even? ? %i[native plain] : %i[plain native]
      order.each { |side| times[side] << (side == :native ? native.call : plain.call) }
    end
    @rows << Row.new(name, median(times[:native]) * 1000, median(times[:plain]) * 1000)
    $stdout.print('.')
    $stdout.flush
  end

  def print
    puts
    puts format('%-58<case>s %10<native>s %14<plain>s  %<ratio>s',
                case: 'case', native: 'native ms', plain: 'plain-Ruby ms', ratio: 'ratio (plain/native)')
    @rows.each do |row|
      puts format('%-58<case>s %10.1<native>f %14.1<plain>f  %<ratio>s',
                  case: row.name, native: row.native_ms, plain: row.plain_ms, ratio: ratio_text(row.ratio))
    end
    @notes.each { |note| puts "note: #{note}" }
  end

  private

  def median(values)
    sorted = values.sort
    mid = sorted.size / 2
    sorted.size.odd? ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2.0
  end

  def ratio_text(ratio)
    return format('%<r>.1fx faster', r: ratio) if ratio >= 1

    format('%<r>.2fx (native %<s>.1fx slower)', r: ratio, s: 1 / ratio)
  end
end

# The benchmark proper.
class DirStoreBench
  LIST_TARGET = 5.0
  REPS = { list_cold: 5, list_cached: 7, write: 3, read: 5 }.freeze

  def initialize(tmp)
    @tmp = tmp
    @tree = File.join(tmp, 'tree')
    @big_root = File.join(tmp, 'big')
    @table = DirStoreTable.new
  end

  def run
    build_corpus
    warm_up_and_check
    bench_list('', Digest::SHA256)
    bench_write
    bench_read
    bench_list(' (plain: OpenSSL digest)', OpenSSL::Digest::SHA256)
    @table.print
    print_target
  end

  private

  def timed(&) = DirStoreTable.timed(&)

  def thousands(number) = number.to_s.gsub(/\B(?=(\d{3})+\b)/, ',')

  def build_corpus
    random = Random.new(20_000)
    started = DirStoreTable.now
    @files, @bytes = DirStoreCorpus.build_tree(@tree, Integer(ENV.fetch('BENCH_FILES', 20_000)), random)
    FileUtils.mkdir_p(@big_root)
    @big_mb = Integer(ENV.fetch('BENCH_BIG_MB', 100))
    DirStoreCorpus.build_big(File.join(@big_root, 'big.bin'), @big_mb, random)
    @batch = DirStoreCorpus.write_batch(random)
    puts format('corpus: %<files>d files, %<mb>.1f MB in %<folders>d folders; %<big>d MB file; built in %<s>.1f s',
                files: @files, mb: @bytes / 1e6, folders: DirStoreCorpus.folders.size - 1, big: @big_mb,
                s: DirStoreTable.now - started)
  end

  # One untimed list by each store (warms the page cache), and the check that
  # both stores see the same files, cold and cached.
  def warm_up_and_check
    native = RubyLLM::NativeDir.new(@tree)
    plain = PlainRubyDirStore.new(@tree).list
    check_same_files('list', native.list, plain)
    raise "list has #{plain.size} files, expected #{@files}" unless plain.size == @files

    check_same_files('cached list', native.list, plain)
    check_same_files('list (OpenSSL digest)', native.list,
                     PlainRubyDirStore.new(@tree, digest: OpenSSL::Digest::SHA256).list)
  end

  def check_same_files(what, native, plain)
    note = DirStoreCheck.same_files(what, native, plain)
    @table.notes << note if note
  end

  def bench_list(label, digest)
    plain = PlainRubyDirStore.new(@tree, digest:)
    name = "list #{thousands(@files)} files"
    @table.compare("#{name}, cold digests#{label}", REPS[:list_cold],
                   native: lambda {
                     store = RubyLLM::NativeDir.new(@tree)
                     timed { store.list }
                   },
                   plain: -> { timed { plain.list } })
    cached = RubyLLM::NativeDir.new(@tree)
    cached.list
    @table.compare("#{name}, digests cached#{label}", REPS[:list_cached],
                   native: -> { timed { cached.list } }, plain: -> { timed { plain.list } })
  end

  def bench_write
    native, plain, durable = write_stores
    written = { native: [], plain: [] }
    label = "write #{thousands(@batch.size)} small files"
    @table.compare(label, REPS[:write], native: write_case(native, written[:native]),
                                        plain: write_case(plain, written[:plain]))
    @table.compare("#{label} (plain: tmp+fsync+rename)", REPS[:write],
                   native: write_case(native, written[:native]), plain: write_case(durable, []))
    check_same_files('write', written[:native].first, written[:plain].first)
    check_same_files('list after write', native.list('r0'), plain.list('r0'))
  end

  # NativeDir, plain and plain durable stores, each in a folder of its own.
  def write_stores
    root = File.join(@tmp, 'writes')
    [RubyLLM::NativeDir.new(File.join(root, 'native')), PlainRubyDirStore.new(File.join(root, 'plain')),
     PlainRubyDirStore.new(File.join(root, 'durable'), durable: true)]
  end

  # A callable writing the batch into a new folder r<n> of +store+ each call,
  # collecting the returned StoredFiles in +results+.
  def write_case(store, results)
    lambda do
      folder = "r#{results.size}"
      timed { results << @batch.map { |path, bytes| store.write("#{folder}/#{path}", bytes) } }
    end
  end

  def bench_read
    native = RubyLLM::NativeDir.new(@big_root)
    plain = PlainRubyDirStore.new(@big_root)
    sizes = []
    @table.compare("read #{@big_mb} MB file", REPS[:read],
                   native: -> { timed { sizes << native.read('big.bin').bytesize } },
                   plain: -> { timed { sizes << plain.read('big.bin').bytesize } })
    raise "read sizes differ: #{sizes.uniq.inspect}" unless sizes.uniq == [@big_mb * 1024 * 1024]
    raise 'read bytes differ' unless native.read('big.bin') == plain.read('big.bin')
  end

  def print_target
    cold, cached = @table.rows.first(2).map(&:ratio)
    met = [cold, cached].all? { |ratio| ratio >= LIST_TARGET }
    puts format('list target (>= %<target>.0fx faster than the plain-Ruby Digest::SHA256 store, cold and cached): ' \
                '%<verdict>s (cold %<cold>.1fx, cached %<cached>.1fx)',
                target: LIST_TARGET, verdict: met ? 'MET' : 'NOT MET', cold:, cached:)
  end
end

if $PROGRAM_NAME == __FILE__
  puts "ruby #{RUBY_VERSION}, #{Etc.nprocessors} CPUs, " \
       "ruby_llm-file_stores-native #{RubyLLM::FileStores::Native::VERSION}"
  Dir.mktmpdir('dir_store_bench', ENV.fetch('BENCH_TMPDIR', Dir.tmpdir)) do |tmp|
    DirStoreBench.new(tmp).run
  end
end
