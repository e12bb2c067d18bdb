# frozen_string_literal: true

# RubyLLM::FileStore::Search (the native engine, called in process) against
# ripgrep (rg, a process per search) and PlainRubySearch
# (bench/plain_ruby_search.rb, the obvious Find + File.foreach + Regexp
# engine), timed side by side in one run.
#
# Corpora:
#   real       a large real tree: source and documentation folders of this
#              machine (cargo registry sources, /usr/include, Ruby, Perl, node
#              modules, rustdoc pages...) copied into a temp dir until it
#              holds 30,000+ files and 300+ MB; or, with BENCH_REAL_DIR, an
#              existing folder searched in place (only read, never written);
#   generated  10,000 generated files in 100 folders, about 75 MB;
#   memory     10,000 texts, about 100 MB, in a RubyLLM::FileStore::Memory
#              store: native Search.run against the plain-Ruby engine over
#              the same texts (read from the store inside the timing), no rg.
#
# Cases: a rare literal, a common word that hits the default caps (100
# matching lines / 20,000 characters), a regex, files_only, a glob-restricted
# search (glob: '*.rs', rg -g '*.rs'), and an uncapped search of a common word
# (max_matches: nil, max_chars: nil; rg and the plain-Ruby engine uncapped).
# Every engine ignores case, skips hidden files and folders, does not follow
# links and skips files with a NUL as binary; rg runs with --no-config
# --no-ignore (no ignore files), from the corpus folder, searching '.'. A
# capped rg search is rg piped into a reader that stops after the same caps
# and closes the pipe (rg has no global cap; its first lines are in thread
# order, not path order). A case counts as a full scan when the native output
# was not stopped by a cap, and as capped when it was.
#
# The page cache is warmed first (a native and an rg search over each
# corpus). Each engine's time is the median of BENCH_RUNS repetitions (5;
# BENCH_RUBY_RUNS, 3, for the slow plain-Ruby engine), the engines run
# alternately within each repetition. Targets, checked at the end: full
# scans within 1.3x of rg's wall time, at least 15x faster than plain Ruby,
# and searches that hit the cap early back within a few ms (10 ms here).
#
# A capped search hits the cap early when the plain-Ruby engine gets there
# in under EARLY_SHARE (5%) of the time its rare-literal full scan of the
# same corpus takes. One that must read further first (the real tree's
# regex finds its 101st line after 2,725 files, 39 MB) is a partial scan,
# held to the full-scan targets instead. The Memory corpus has no such
# yardstick (its plain-Ruby time includes reading every text from the
# store), and its capped searches stop early.
#
# Usage, from the repository root after `rake compile`:
#
#   ruby -Ilib bench/search_bench.rb     (or: rake bench)
#
# Environment: BENCH_REAL_DIR (search this folder in place instead of a
# copy), BENCH_GEN_FILES (10000), BENCH_MEMORY_MB (100), BENCH_RUNS (5),
# BENCH_RUBY_RUNS (3), BENCH_TMPDIR (the system temp dir).

lib = File.expand_path('../lib', __dir__)
$LOAD_PATH.unshift(lib) unless $LOAD_PATH.include?(lib)

require 'etc'
require 'fileutils'
require 'find'
require 'tmpdir'
require 'ruby_llm/file_stores/native'
require_relative 'plain_ruby_search'

module SearchBench
  RUNS = Integer(ENV.fetch('BENCH_RUNS', '5'))
  RUBY_RUNS = Integer(ENV.fetch('BENCH_RUBY_RUNS', '3'))
  GEN_FILES = Integer(ENV.fetch('BENCH_GEN_FILES', '10000'))
  MEMORY_MB = Integer(ENV.fetch('BENCH_MEMORY_MB', '100'))
  RG = %w[rg --no-config --no-ignore --line-number --no-heading --with-filename --color never -i].freeze
  CAPS = { max_matches: 100, max_chars: 20_000 }.freeze
  UNCAPPED = { max_matches: nil, max_chars: nil }.freeze
  FEW_MS = 10.0
  EARLY_SHARE = 0.05
  NOT_A_HIT = /\A(No matches\.|Skipped \d+ |Could not search |\[Stopped)/

  Case = Struct.new(:label, :pattern, :options, keyword_init: true) do
    def capped? = options.fetch(:max_matches, 100) || options.fetch(:max_chars, 20_000)

    def rg_args
      args = RG.dup
      args += ['-g', options[:glob]] if options[:glob]
      args << '--files-with-matches' if options[:files_only]
      args + ['-e', pattern, '--', '.']
    end
  end

  Row = Struct.new(:corpus, :label, :native, :rg, :ruby, :counts, :capped, keyword_init: true)

  def self.cases(rare:, common:, regex:, glob_pattern:)
    [
      Case.new(label: "rare literal #{rare.inspect}", pattern: rare, options: {}),
      Case.new(label: "common word #{common.inspect}, capped", pattern: common, options: {}),
      Case.new(label: "regex #{regex.inspect}", pattern: regex, options: {}),
      Case.new(label: "files_only #{common.inspect}", pattern: common, options: { files_only: true }),
      Case.new(label: "glob *.rs #{glob_pattern.inspect}", pattern: glob_pattern, options: { glob: '*.rs' }),
      Case.new(label: "uncapped #{common.inspect}", pattern: common, options: UNCAPPED)
    ]
  end

  def self.now = Process.clock_gettime(Process::CLOCK_MONOTONIC)

  def self.median(values)
    sorted = values.sort
    mid = sorted.size / 2
    sorted.size.odd? ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2.0
  end

  def self.hits(output) = output.each_line.count { |line| !line.match?(NOT_A_HIT) }

  # Files and bytes of the regular files below +root+ (hidden ones too).
  def self.size_of(root)
    files = bytes = 0
    Find.find(root) do |path|
      stat = File.lstat(path)
      next unless stat.file?

      files += 1
      bytes += stat.size
    end
    [files, bytes]
  end
end

# Builds the corpora.
module SearchBench
  module Corpus
    REAL_SOURCES = ['~/.cargo/registry/src', '/usr/include', '/usr/lib/ruby', '/usr/share/perl',
                    '/usr/lib/node_modules', '~/.rustup/toolchains/*/share/doc/rust/html/core/core_arch',
                    '/usr/lib/python3', '/usr/share/vim', '/usr/share/doc', '/usr/share'].freeze
    MIN_FILES = 30_000
    MIN_BYTES = 300 << 20
    WORDS = %w[the a of and to in is for on with as by it at from that this be are or an return value result
               error fn let mut self struct impl pub use match if else while loop break lorem ipsum dolor sit amet
               consectetur adipiscing elit sed do eiusmod tempor incididunt ut labore et dolore magna aliqua
               request response buffer index table column row header footer config option].freeze
    EXTENSIONS = %w[.rs .md .txt .rb .json].freeze

    module_function

    # Copies real folders into +dest+ until it is large enough; returns a
    # description. Links are copied as links (and so skipped by every engine).
    def copy_real(dest)
      FileUtils.mkdir_p(dest)
      copied = []
      sources.each_with_index do |source, index|
        label = format('%<i>02d-%<name>s', i: index, name: source.split('/').last(2).join('-').delete_prefix('.'))
        system('cp', '-r', source, File.join(dest, label), exception: true)
        copied << source
        files, bytes = SearchBench.size_of(dest)
        break if files >= MIN_FILES && bytes >= MIN_BYTES
      end
      "a copy of #{copied.join(', ')}"
    end

    def sources
      REAL_SOURCES.filter_map do |pattern|
        found = Dir.glob(File.expand_path(pattern)).find { |path| File.directory?(path) && !File.symlink?(path) }
        found && File.realpath(found)
      end.uniq
    end

    # Text lines to slice file contents from.
    def pool(random, bytes)
      lines = []
      size = 0
      while size < bytes
        line = "#{Array.new(random.rand(3..14)) { WORDS.sample(random:) }.join(' ')}\n"
        lines << line
        size += line.bytesize
      end
      lines.join
    end

    # +bytes+ of whole lines from +pool+, from a random line.
    def slice(pool, random, bytes)
      start = pool.index("\n", random.rand(pool.bytesize - bytes - 1)) + 1
      text = pool.byteslice(start, bytes)
      text[0..text.rindex("\n")]
    end

    # GEN_FILES files, 10 x 10 folders, sizes log-uniform from 200 B to 40 KB,
    # with a rare word and a test function sprinkled in, a few hidden files,
    # a binary file per folder, and links (skipped by every engine).
    def generate(root, count, random)
      text = pool(random, 4 << 20)
      count.times do |i|
        path = File.join(root, "area#{i % 10}", "part#{(i / 10) % 10}", "file#{format('%05d', i)}#{EXTENSIONS[i % 5]}")
        body = slice(text, random, (200 * (200**random.rand)).to_i)
        body += "the xylophone plays\n" if (i % 997).zero?
        body += "fn parse_header_test() {}\n" if (i % 499).zero?
        FileUtils.mkdir_p(File.dirname(path))
        File.binwrite(path, body)
      end
      add_skipped_files(root)
    end

    def add_skipped_files(root)
      10.times do |a|
        File.binwrite(File.join(root, "area#{a}", '.hidden.md'), "return xylophone\n")
        File.binwrite(File.join(root, "area#{a}", 'blob.bin'), "\0\0return xylophone\n".b)
      end
      FileUtils.mkdir_p(File.join(root, '.git'))
      File.binwrite(File.join(root, '.git/objects.txt'), "return xylophone\n" * 1000)
      File.symlink('area0', File.join(root, 'link-to-area0'))
    end

    # A Memory store of 10,000 texts totalling about +megabytes+ MB.
    def memory_store(random, megabytes)
      store = RubyLLM::FileStore::Memory.new
      text = pool(random, 4 << 20)
      mean = (megabytes << 20) / 10_000
      10_000.times do |i|
        body = slice(text, random, random.rand((mean / 2)..(mean * 3 / 2)))
        body += "the xylophone plays\n" if (i % 997).zero?
        body += "fn parse_header_test() {}\n" if (i % 499).zero?
        store.write("notes/d#{format('%02d', i % 50)}/n#{format('%05d', i)}#{EXTENSIONS[i % 5]}", body)
      end
      store
    end
  end
end

# Times the engines and prints the table.
module SearchBench
  class Runner
    def initialize
      @rows = []
    end

    attr_reader :rows

    def disk(corpus, root, cases)
      store = RubyLLM::NativeDir.new(root)
      plain = PlainRubySearch.new(root)
      warm(store, root)
      cases.each do |kase|
        engines = {
          native: -> { native(store, kase) },
          rg: -> { rg(kase, root) },
          ruby: -> { plain.run(kase.pattern, **kase.options) }
        }
        add(corpus, kase, engines)
      end
    end

    def memory(store, cases)
      cases.each do |kase|
        engines = {
          native: -> { native(store, kase) },
          ruby: lambda {
            docs = store.list.map { |file| [file.path, store.read(file.path)] }
            PlainRubySearch.texts(docs, kase.pattern, **kase.options)
          }
        }
        add('memory', kase, engines)
      end
    end

    private

    def warm(store, root)
      RubyLLM::FileStore::Search.run(store, 'no such text anywhere', timeout: 600)
      IO.popen([*RG, '-e', 'no such text anywhere', '--', '.'], chdir: root, in: File::NULL, &:read)
    end

    # The lines of an engine's result (an output, or a count already made).
    # Counting is the bench's bookkeeping, not the engine's work, so it is
    # done outside the timing.
    def count(name, result)
      @stopped = result.include?('[Stopped') if name == :native
      result.is_a?(String) ? SearchBench.hits(result) : result
    end

    # The native output, as the model gets it.
    def native(store, kase)
      RubyLLM::FileStore::Search.run(store, kase.pattern, timeout: 600, **kase.options)
    end

    # rg's output (read whole), or its line count when the case is capped:
    # then it is read line by line and stopped at the caps, as the engine is.
    def rg(kase, root)
      lines = chars = 0
      IO.popen(kase.rg_args, chdir: root, in: File::NULL, err: File::NULL) do |io|
        return io.binmode.read unless kase.capped?

        io.each_line do |line|
          lines += 1
          chars += line.bytesize
          break if kase.capped? && (lines >= CAPS[:max_matches] || chars >= CAPS[:max_chars])
        end
      end
      lines
    end

    def add(corpus, kase, engines)
      times = engines.keys.to_h { |name| [name, []] }
      counts = {}
      RUNS.times do |rep|
        engines.each do |name, run|
          next if name == :ruby && rep >= RUBY_RUNS

          started = SearchBench.now
          result = run.call
          times[name] << ((SearchBench.now - started) * 1000)
          counts[name] = count(name, result)
        end
      end
      medians = times.transform_values { |values| SearchBench.median(values) }
      @rows << Row.new(corpus:, label: kase.label, capped: @stopped, counts:, **medians)
      Report.row(@rows.last)
    end
  end

  module Report
    LINE = '%<corpus>-10s %<label>-34s %<native>10s %<rg>10s %<ruby>13s %<vs_rg>9s %<vs_ruby>11s  %<counts>s'
    HEADER = format(LINE, corpus: 'corpus', label: 'case', native: 'native ms', rg: 'rg ms', ruby: 'plain-Ruby ms',
                          vs_rg: 'native/rg', vs_ruby: 'Ruby/native', counts: 'lines native/rg/Ruby')

    module_function

    def header
      puts HEADER
      puts '-' * HEADER.size
    end

    def row(row)
      counts = %i[native rg ruby].map { |name| row.counts[name] || '-' }.join('/')
      counts += ' (capped)' if row.capped
      puts format(LINE, corpus: row.corpus, label: row.label[0, 34], native: ms(row.native), rg: ms(row.rg),
                        ruby: ms(row.ruby), vs_rg: ratio(row.native, row.rg), vs_ruby: ratio(row.ruby, row.native),
                        counts:)
      $stdout.flush
    end

    def ms(value) = value ? format('%.1f', value) : '-'
    def ratio(slower, faster) = slower && faster ? format('%.2fx', slower / faster) : '-'

    def verdict(rows)
      early, partial = classify(rows)
      full = rows.reject(&:capped) + partial
      puts
      puts 'Verdict:'
      check('full and partial scans within 1.3x of rg', full.select(&:rg)) { |row| row.native <= row.rg * 1.3 }
      check('at least 15x faster than plain Ruby (full and partial scans)', full) { |row| row.ruby >= row.native * 15 }
      check("searches that hit the cap early within #{FEW_MS.to_i} ms", early) { |row| row.native <= FEW_MS }
      partial.each { |row| puts "  (partial scan, the cap came late: #{row.corpus} #{row.label})" }
    end

    # The capped rows whose cap came early, and the partial scans.
    def classify(rows) = rows.select(&:capped).partition { |row| early?(row, rows) }

    # Whether a capped row's cap came early (see EARLY_SHARE).
    def early?(row, rows)
      full_scan = rows.find { |other| other.corpus == row.corpus && other.label.start_with?('rare literal') }
      return true unless full_scan&.ruby && row.ruby && row.corpus != 'memory'

      row.ruby < full_scan.ruby * EARLY_SHARE
    end

    def check(target, rows, &)
      misses = rows.reject(&)
      puts "  #{target}: #{misses.empty? ? 'MET' : "MISSED in #{misses.size} of #{rows.size}"}"
      misses.each do |row|
        puts format('    %<corpus>-10s %<label>-34s native %<native>s ms, rg %<rg>s ms, plain Ruby %<ruby>s ms',
                    corpus: row.corpus, label: row.label[0, 34], native: ms(row.native), rg: ms(row.rg),
                    ruby: ms(row.ruby))
      end
    end
  end

  def self.corpora(tmp, started)
    real = ENV.fetch('BENCH_REAL_DIR', nil)
    real_root = real ? File.expand_path(real) : File.join(tmp, 'real')
    what = real ? "#{real_root}, searched in place" : Corpus.copy_real(real_root)
    files, bytes = size_of(real_root)
    puts "real corpus: #{what}: #{files} files, #{bytes >> 20} MB (set up in #{(now - started).round(1)} s)"
    gen_root = File.join(tmp, 'generated')
    Corpus.generate(gen_root, GEN_FILES, Random.new(42))
    files, bytes = size_of(gen_root)
    puts "generated corpus: #{files} files, #{bytes >> 20} MB"
    memory = Corpus.memory_store(Random.new(7), MEMORY_MB)
    puts "memory corpus: #{memory.list.size} texts, #{memory.total_size >> 20} MB in a RubyLLM::FileStore::Memory"
    [real_root, gen_root, memory]
  end

  def self.main # rubocop:disable Metrics/AbcSize
    started = now
    puts "Search bench: #{RUBY_DESCRIPTION}"
    puts "#{`rg --version`.lines.first&.strip || 'rg missing'}; #{Etc.nprocessors} CPUs; " \
         "median of #{RUNS} runs (plain Ruby #{RUBY_RUNS})"
    Dir.mktmpdir('search-bench', ENV.fetch('BENCH_TMPDIR', Dir.tmpdir)) do |tmp|
      real_root, gen_root, memory = corpora(tmp, started)
      runner = Runner.new
      puts
      Report.header
      runner.disk('real', real_root, cases(rare: 'XML_PARSE_HUGE', common: 'return', regex: 'fn\s+\w+_test',
                                           glob_pattern: 'unreachable_unchecked'))
      generated = cases(rare: 'xylophone', common: 'return', regex: 'fn\s+\w+_test', glob_pattern: 'xylophone')
      runner.disk('generated', gen_root, generated)
      runner.memory(memory, generated.reject { |kase| kase.options[:glob] })
      Report.verdict(runner.rows)
    end
    puts "\nTotal bench time: #{(now - started).round(1)} s"
  end
end

SearchBench.main if $PROGRAM_NAME == __FILE__
