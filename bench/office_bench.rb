# frozen_string_literal: true

# The native Office converter (RubyLLM::FileStores::Native.office_to_text)
# against Microsoft's markitdown, pandoc and a bare calamine dump, on the same
# files, timed side by side in one run.
#
# Each engine converts a whole list of files, and its time is the wall time
# of that list, reading each file included:
#   native      one Ruby process (this one) over all files;
#   markitdown  one Python process over all files (a small driver below),
#               after its imports and a warm-up conversion of each format,
#               so Python's start-up is not counted;
#   pandoc      one process per file (`pandoc -f docx -t plain`), which is
#               how pandoc is used; its start-up time is printed alongside.
#               Debian 12's pandoc 2.17 reads .docx only (pptx and xlsx came
#               in pandoc 3), so it is compared on .docx;
#   calamine    bench/calamine_dump, one process over all .xlsx files (it
#               times itself, without process start-up): every sheet as
#               tab-separated rows with calamine's own cell formatting.
# The files timed for a format are those the native converter reads; files
# another engine fails on are counted and shown. Native and calamine go
# through the list as many times as native needs to take BENCH_MIN_SECONDS
# (0.5), since a single pass over small files takes a few ms and would be
# mostly noise; their times are the median of BENCH_RUNS (5) such runs,
# markitdown's and pandoc's of BENCH_SLOW_RUNS (1) single passes. Targets, checked at the end: native at least 50x
# faster than markitdown and 10x than pandoc, and within 1.5x of calamine.
#
# Corpus: BENCH_OFFICE_DIR (tmp/office_corpus), made by
# bench/make_office_corpus.py (generated/ and thirdparty/; see
# bench/README.md). When it is missing and the fixtures venv exists, it is
# made first.
#
# Usage, from the repository root after `rake compile`:
#
#   ruby -Ilib bench/office_bench.rb     (or: rake bench)
#
# Environment: BENCH_OFFICE_DIR, BENCH_RUNS (5), BENCH_SLOW_RUNS (1), BENCH_MIN_SECONDS (0.5),
# MARKITDOWN_PYTHON (/work/venvs/markitdown/bin/python), PANDOC (pandoc),
# OFFICE_CORPUS_PYTHON (/work/venvs/fixtures/bin/python, to make the corpus).

lib = File.expand_path('../lib', __dir__)
$LOAD_PATH.unshift(lib) unless $LOAD_PATH.include?(lib)

require 'open3'
require 'ruby_llm/file_stores/native'

# How each engine converts a list of files, each answering a Result.
module OfficeEngines
  ROOT = File.expand_path('..', __dir__)
  MARKITDOWN = ENV.fetch('MARKITDOWN_PYTHON', '/work/venvs/markitdown/bin/python')
  PANDOC = ENV.fetch('PANDOC', 'pandoc')
  DUMP_DIR = File.join(ROOT, 'bench/calamine_dump')
  DUMP = File.join(DUMP_DIR, 'target/release/calamine_dump')

  # Converts with markitdown every file named on the command line; prints
  # files=, failed=, bytes=, seconds= like calamine_dump.
  MARKITDOWN_DRIVER = <<~PYTHON
    import sys, time
    from markitdown import MarkItDown
    md = MarkItDown()
    files = sys.argv[1:]
    seen = set()
    for f in files:  # warm up: lazy imports of each format's reader
        ext = f.rsplit('.', 1)[-1]
        if ext not in seen:
            seen.add(ext)
            try: md.convert(f)
            except Exception: pass
    count = failed = size = 0
    start, cpu = time.perf_counter(), time.process_time()
    for f in files:
        try:
            size += len(md.convert(f).text_content)
            count += 1
        except Exception as e:
            failed += 1
            print(f"{f}: {type(e).__name__}", file=sys.stderr)
    print(f"files={count} failed={failed} bytes={size} seconds={time.perf_counter() - start:.6f} "
          f"cpu={time.process_time() - cpu:.6f}")
  PYTHON

  # One engine's run over a list: files read, files failed, wall and CPU
  # seconds.
  Result = Struct.new(:files, :failed, :seconds, :cpu, keyword_init: true) do
    def rate = files.zero? || seconds.zero? ? nil : files / seconds
    def cpu_rate = files.zero? || cpu.zero? ? nil : files / cpu
  end

  module_function

  def clock = Process.clock_gettime(Process::CLOCK_MONOTONIC)
  def cpu_clock = Process.clock_gettime(Process::CLOCK_PROCESS_CPUTIME_ID)
  def children_cpu = Process.times.then { |t| t.cutime + t.cstime }

  # Which engines can run here: nil, or the reason one cannot.
  def availability
    {
      native: nil,
      markitdown: File.executable?(MARKITDOWN) ? nil : "no #{MARKITDOWN} (set MARKITDOWN_PYTHON)",
      pandoc: system(PANDOC, '--version', out: File::NULL, err: File::NULL) ? nil : "no #{PANDOC} in PATH",
      calamine: build_dump
    }
  end

  def build_dump
    return nil if File.executable?(DUMP)
    return nil if system('cargo', 'build', '--release', '--quiet', chdir: DUMP_DIR) && File.executable?(DUMP)

    'bench/calamine_dump did not build (cargo build --release there)'
  end

  def native(files, repeat = 1)
    failed = 0
    start = clock
    cpu = cpu_clock
    (files * repeat).each do |path|
      RubyLLM::FileStores::Native.office_to_text(File.binread(path), File.basename(path), '')
    rescue RubyLLM::FileStore::ConversionError
      failed += 1
    end
    Result.new(files: (files.size * repeat) - failed, failed:, seconds: clock - start, cpu: cpu_clock - cpu)
  end

  def markitdown(files, _repeat = 1) = parse(MARKITDOWN, '-c', MARKITDOWN_DRIVER, *files)

  def calamine(files, repeat = 1) = parse(DUMP, '--repeat', repeat.to_s, *files)

  def pandoc(files, _repeat = 1)
    failed = 0
    start = clock
    cpu = children_cpu
    files.each do |path|
      _, status = Open3.capture2e(PANDOC, '-f', 'docx', '-t', 'plain', path)
      failed += 1 unless status.success?
    end
    Result.new(files: files.size - failed, failed:, seconds: clock - start, cpu: children_cpu - cpu)
  end

  def pandoc_startup
    Array.new(5) do
      start = clock
      Open3.capture2e(PANDOC, '--version')
      clock - start
    end.min
  end

  # Runs a command that prints files= failed= seconds= cpu= and reads that line.
  def parse(*command)
    out, err, status = Open3.capture3(*command)
    raise "#{File.basename(command.first)} failed: #{err.lines.last}" unless status.success?

    fields = out.scan(/(\w+)=(\S+)/).to_h
    Result.new(files: Integer(fields.fetch('files')), failed: Integer(fields.fetch('failed')),
               seconds: Float(fields.fetch('seconds')), cpu: Float(fields.fetch('cpu')))
  end
end

# The table of results and the targets: native's files per second over
# each other engine's, by wall time and by CPU time.
module OfficeReport
  ENGINES = %i[native markitdown pandoc calamine].freeze
  # How much faster than each engine native should be (calamine: within 1.5x).
  TARGETS = { markitdown: 50.0, pandoc: 10.0, calamine: 1 / 1.5 }.freeze

  module_function

  # Files per second (wall), then how many times faster native is, by wall
  # and by CPU time; * marks a run with failures.
  def cell(row, engine)
    result = row[engine]
    return format('%<x>-31s', x: '-') if result.nil?

    rate = format('%<r>.1f%<mark>s', r: result.rate || 0, mark: result.failed.positive? ? '*' : '')
    return format('%<rate>10s f/s %<pad>16s', rate:, pad: '') if engine == :native

    wall, cpu = ratios(row, engine)
    format('%<rate>10s f/s %<wall>7.1fx %<cpu>6.1fx ', rate:, wall: wall || 0, cpu: cpu || 0)
  end

  def ratios(row, engine)
    native = row[:native]
    other = row[engine]
    [other.rate && (native.rate / other.rate), other.cpu_rate && (native.cpu_rate / other.cpu_rate)]
  end

  LINE = '%<set>-11s %<type>-5s %<files>6s %<mb>7s  %<engines>s'

  def header
    puts format(LINE, set: '', type: '', files: '', mb: '', engines: ENGINES.map { |e| format('%<e>-31s', e:) }.join)
    puts format(LINE, set: 'set', type: 'type', files: 'files', mb: 'MB',
                      engines: ENGINES.map { |_| format('%<h>-31s', h: '  files/s   x wall  x cpu') }.join)
  end

  def report(rows)
    header
    rows.each do |(set, type), (files, row)|
      mb = format('%<mb>.1f', mb: files.sum { |f| File.size(f) } / 1e6)
      puts format(LINE, set:, type:, files: files.size, mb:, engines: ENGINES.map { |e| cell(row, e) }.join)
      row.each { |engine, r| puts "  * #{engine}: #{r.failed} of these files failed" if r.failed.positive? }
    end
  end

  def check_targets(rows)
    puts "\nTargets (native files/s over the other's, by wall time and by CPU time):"
    rows.each do |(set, type), (_, row)|
      row.each_key do |engine|
        next if engine == :native

        wall, cpu = ratios(row, engine)
        next if wall.nil?

        target = TARGETS.fetch(engine)
        goal = engine == :calamine ? 'within 1.5x' : ">= #{target.round}x"
        puts format('  %<set>-10s %<type>-5s vs %<engine>-10s wall %<wall>7.2fx %<wm>-7s cpu %<cpu>7.2fx %<cm>-7s ' \
                    '(target %<goal>s)', set:, type:, engine:, wall:, cpu: cpu || 0, goal:,
                                         wm: met(wall, target), cm: met(cpu, target))
      end
    end
  end

  def met(ratio, target) = ratio && ratio >= target ? 'met' : 'MISSED'
end

# The corpus and the runs.
module OfficeBench
  ROOT = File.expand_path('..', __dir__)
  CORPUS = ENV.fetch('BENCH_OFFICE_DIR', File.join(ROOT, 'tmp/office_corpus'))
  RUNS = Integer(ENV.fetch('BENCH_RUNS', '5'))
  SLOW_RUNS = Integer(ENV.fetch('BENCH_SLOW_RUNS', '1'))
  MIN_SECONDS = Float(ENV.fetch('BENCH_MIN_SECONDS', '0.5'))
  CORPUS_PYTHON = ENV.fetch('OFFICE_CORPUS_PYTHON', '/work/venvs/fixtures/bin/python')
  FORMATS = %w[docx xlsx pptx].freeze
  OTHERS = { 'docx' => %i[markitdown pandoc], 'xlsx' => %i[markitdown calamine], 'pptx' => %i[markitdown] }.freeze

  module_function

  # The median of some runs, by time.
  def median(results) = results.min_by((results.size / 2) + 1, &:seconds).last

  def ensure_corpus
    return true unless Dir[File.join(CORPUS, '**/*.{docx,xlsx,pptx}')].empty?

    unless File.executable?(CORPUS_PYTHON)
      puts "Office bench skipped: no corpus in #{CORPUS}; make it with bench/make_office_corpus.py (bench/README.md)"
      return false
    end
    system(CORPUS_PYTHON, File.join(ROOT, 'bench/make_office_corpus.py'), '--out', CORPUS, exception: true)
  end

  # The corpus's files by set (generated, thirdparty) and format, keeping
  # those the native converter reads; the others are counted by format.
  def corpus
    sets = {}
    refused = Hash.new(0)
    %w[generated thirdparty].product(FORMATS).each do |set, format_name|
      files = Dir[File.join(CORPUS, set, '**', "*.#{format_name}")]
      readable = files.select { |path| OfficeEngines.native([path]).failed.zero? }
      refused[format_name] += files.size - readable.size
      sets[[set, format_name]] = readable unless readable.empty?
    end
    [sets, refused]
  end

  # Native and calamine go through the list as many times as it takes native
  # MIN_SECONDS, so that their short runs are not all noise, and take turns
  # within each repetition, so that a change in the machine's load falls on
  # both.
  def run_row(files, others)
    repeat = (MIN_SECONDS / OfficeEngines.native(files).seconds).ceil.clamp(1, 1000)
    fast = [:native] + (others & [:calamine])
    runs = Array.new(RUNS) { fast.map { |engine| OfficeEngines.send(engine, files, repeat) } }.transpose
    row = fast.zip(runs).to_h { |engine, results| [engine, median(results)] }
    (others - fast).each do |engine|
      row[engine] = median(Array.new(SLOW_RUNS) { OfficeEngines.send(engine, files) })
    rescue RuntimeError => e
      puts "  #{engine}: #{e.message}"
    end
    row
  end

  def preamble(available, refused)
    available.each { |engine, why| puts "Office bench: #{engine} skipped: #{why}" if why }
    puts "Office bench: corpus #{CORPUS}; native and calamine: median of #{RUNS} runs of at least " \
         "#{MIN_SECONDS} s (the list repeated), markitdown and pandoc: #{SLOW_RUNS} single pass"
    refused.each { |type, n| puts "  #{n} .#{type} files the native converter refuses are left out" if n.positive? }
    puts '  native: this Ruby process; markitdown: one Python process, timed after imports and a warm-up;'
    puts '  calamine_dump: one process, timed inside it; pandoc: a process per file, as it is used'
    return unless available[:pandoc].nil?

    puts format('  (pandoc --version alone takes %<ms>.0f ms: its start-up)', ms: OfficeEngines.pandoc_startup * 1000)
  end

  def run
    return unless ensure_corpus

    available = OfficeEngines.availability
    sets, refused = corpus
    preamble(available, refused)
    rows = sets.to_h do |key, files|
      [key, [files, run_row(files, OTHERS.fetch(key.last).select { |engine| available[engine].nil? })]]
    end
    return puts('Office bench: the native converter read none of the files (rake compile?)') if rows.empty?

    OfficeReport.report(rows)
    OfficeReport.check_targets(rows)
  end
end

OfficeBench.run if $PROGRAM_NAME == __FILE__
