# frozen_string_literal: true

# search_files over a RubyLLM::FileStore::Mounts tree of three stores (issue
# #30) against the same searches run one store at a time: the merge (what
# each store found, put in path order under full paths, held to one set of
# caps and notes, and written once) may cost at most 10% over the sum of the
# stores' own searches.
#
# The tree: an empty Memory default store, and mounted
#   docs     a NativeDir of 47,000 generated files (470 folders of 100, about
#            1 KB each), searched on disk by the native engine;
#   chat     an Active Storage chat of 2,000 files (the spec application's,
#            on SQLite in a temporary folder; needs Rails, as
#            bin/test-active-storage does), searched over the texts its rows
#            keep;
#   scratch  a Memory store of 2,000 files.
#
# Cases: a rare literal (a full scan of every store), a common word (each
# store stops at the caps of 100 matching lines / 20,000 characters), a
# regular expression (a full scan), files_only of a common word (capped).
# Each ratio is the median over BENCH_RUNS (5) repetitions of the tree's
# time over the stores' summed, the two taking turns to go first, after a
# warm-up; in wall time and in CPU time (the process's, the engine's threads
# included), since on a shared machine wall time measures the neighbours too.
# The target is checked on the merge alone: the same tree over stores that
# answer with the reports their searches gave (Recorded), which times exactly
# what the tree adds, free of the noise of searching 51,000 files again.
#
# Usage, from the repository root after `rake compile`:
#
#   ruby -Ilib bench/mounts_bench.rb     (or: rake bench)
#
# Environment: BENCH_MOUNT_FILES (47000), BENCH_RUNS (5), BENCH_TMPDIR.

lib = File.expand_path('../lib', __dir__)
$LOAD_PATH.unshift(lib) unless $LOAD_PATH.include?(lib)

require 'fileutils'
require 'tmpdir'
require 'ruby_llm/file_stores/native'

module MountsBench
  # A store that answers a search with the report of a search made before,
  # and everything else as +store+: a tree of these times the merge alone.
  class Recorded < RubyLLM::FileStore
    def initialize(store, report)
      super()
      @store = store
      @report = report
    end

    def search_report(_request) = @report
    def list(folder = nil) = @store.list(folder)
    def [](path) = @store[path]
    def read(path) = @store.read(path)
  end

  FILES = Integer(ENV.fetch('BENCH_MOUNT_FILES', '47000'))
  SMALL = 2_000
  RUNS = Integer(ENV.fetch('BENCH_RUNS', '5'))
  TARGET = 1.10
  WORDS = %w[contract invoice payment schedule delivery notice clause party term renewal budget review].freeze
  CASES = {
    'rare literal' => ['zanzibar-quartz', {}],
    'common word (capped)' => ['payment', {}],
    'regex' => ['renew(al|ed) +\d{3}', {}],
    'files_only (capped)' => ['notice', { files_only: true }]
  }.freeze

  module_function

  def text(index)
    words = Array.new(160) { |n| WORDS[((index * 7) + (n * 3)) % WORDS.size] }
    lines = words.each_slice(16).map { |line| line.join(' ') }
    lines << 'zanzibar-quartz' if (index % 9_973).zero?
    lines << "renewal #{index % 1000}" if (index % 97).zero?
    "#{lines.join("\n")}\n"
  end

  def make_folder(root)
    FILES.times do |i|
      dir = File.join(root, format('f%03d', i / 100))
      FileUtils.mkdir_p(dir) if (i % 100).zero?
      File.write(File.join(dir, format('doc%05d.txt', i)), text(i))
    end
  end

  def active_storage_chat(dir)
    FileUtils.mkdir_p(dir)
    ENV['RUBY_LLM_AS_DIR'] = dir
    require_relative '../spec/active_storage/support/rails_app'
    ActiveStorageSpecApp.migrate!
    store = RubyLLM::FileStore::ActiveStorage.new(Chat.create!(title: 'bench'))
    paths = Array.new(SMALL) { |i| format('notes/n%04d.md', i) }
    _, unsaved, error = store.write_many(paths) { |path| text(Integer(path[/\d+/], 10) + 1) }
    raise "the chat's files were not all written: #{error}" unless unsaved.empty?

    store
  end

  def memory
    RubyLLM::FileStore::Memory.new.tap do |store|
      SMALL.times { |i| store.write(format('s%04d.txt', i), text(i + 3)) }
    end
  end

  def clock = Process.clock_gettime(Process::CLOCK_MONOTONIC)

  def timed
    start = clock
    yield
    clock - start
  end

  def median(values) = values.sort[values.size / 2]

  def run
    tmp = Dir.mktmpdir('mounts_bench', ENV.fetch('BENCH_TMPDIR', Dir.tmpdir))
    tree, stores = build(tmp)
    failed = CASES.map { |name, (pattern, options)| measure(name, tree, stores, pattern, options) }.compact
    target = "#{((TARGET - 1) * 100).round}%"
    puts failed.empty? ? "All within #{target} of the sum." : "Over #{target} of the sum: #{failed.join(', ')}"
    exit(failed.empty? ? 0 : 1)
  ensure
    FileUtils.rm_rf(tmp) if tmp
  end

  # The tree and its stores (mount name => store, '' the default).
  def build(tmp)
    folder = File.join(tmp, 'docs')
    puts "Making #{FILES} files on disk, #{SMALL} in Active Storage, #{SMALL} in memory..."
    make_folder(folder)
    stores = { '' => RubyLLM::FileStore::Memory.new, 'chat' => active_storage_chat(File.join(tmp, 'as')),
               'docs' => RubyLLM::NativeDir.new(folder), 'scratch' => memory }
    [RubyLLM::FileStore::Mounts.new(stores[''], stores.reject { |name, _| name.empty? }), stores]
  end

  # One case: the tree's time over the stores' summed, in wall time and in
  # the process's CPU time (the engine's threads included: on a shared
  # machine wall time also measures what else runs), and the merge alone;
  # the case's name when the merge costs more than TARGET over the sum.
  def measure(name, tree, stores, pattern, options)
    one = -> { tree.search(pattern, **options) }
    each = -> { stores.each_value { |store| store.search(pattern, **options) } }
    [one, each].each(&:call)
    pairs = Array.new(RUNS) do |run| # they take turns going first
      run.even? ? [timed_both(&one), timed_both(&each)] : [timed_both(&each), timed_both(&one)].reverse
    end
    show(name, pairs, merge_alone(stores, pattern, options))
  end

  # Prints a case's line; its name when the merge alone costs more than
  # TARGET over the sum.
  def show(name, pairs, merge)
    separate = median(pairs.map { |_, s| s[0] })
    puts format('%<name>-22s tree %<tree>8.1f ms, stores one at a time %<each>8.1f ms: wall %<wall>+.1f%%, ' \
                'CPU %<cpu>+.1f%%; the merge alone %<merge>.1f ms (%<share>.2f%%)',
                name:, tree: median(pairs.map { |m, _| m[0] }) * 1000, each: separate * 1000,
                wall: ratio(pairs, 0), cpu: ratio(pairs, 1), merge: merge * 1000, share: merge / separate * 100)
    merge / separate > TARGET - 1 ? name : nil
  end

  # The median of the tree's time over the stores' (+at+ 0: wall, 1: CPU), as a change in percent.
  def ratio(pairs, at) = (median(pairs.map { |m, s| m[at] / s[at] }) - 1) * 100

  def timed_both
    wall = clock
    cpu = Process.clock_gettime(Process::CLOCK_PROCESS_CPUTIME_ID)
    yield
    [clock - wall, Process.clock_gettime(Process::CLOCK_PROCESS_CPUTIME_ID) - cpu]
  end

  # The median time of the merge itself: a tree whose stores answer with
  # the reports their searches gave, so that only putting them together and
  # writing the output is timed.
  def merge_alone(stores, pattern, options)
    request = RubyLLM::FileStore::Search.arguments(pattern, **options)
    recorded = stores.transform_values { |store| Recorded.new(store, store.search_report(request)) }
    tree = RubyLLM::FileStore::Mounts.new(recorded[''], recorded.reject { |name, _| name.empty? })
    median(Array.new(RUNS) { timed { tree.search(pattern, **options) } })
  end
end

MountsBench.run if $PROGRAM_NAME == __FILE__
