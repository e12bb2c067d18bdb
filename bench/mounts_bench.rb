# frozen_string_literal: true

# search_files over a RubyLLM::FileStore::Mounts tree of three stores (issue
# #30) against the same searches run one store at a time: the merge (each
# store's output taken apart, put in path order, held to one set of caps and
# notes) may cost at most 10% over the sum of the stores' own searches.
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
# Each time is the median of BENCH_RUNS (5) repetitions, the tree and the
# stores one by one alternating within each repetition, after a warm-up.
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
    words = Array.new(160) { |n| WORDS[(index * 7 + n * 3) % WORDS.size] }
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
    folder = File.join(tmp, 'docs')
    puts "Making #{FILES} files on disk, #{SMALL} in Active Storage, #{SMALL} in memory..."
    make_folder(folder)
    stores = { '' => RubyLLM::FileStore::Memory.new, 'chat' => active_storage_chat(File.join(tmp, 'as')),
               'docs' => RubyLLM::NativeDir.new(folder), 'scratch' => memory }
    tree = RubyLLM::FileStore::Mounts.new(stores[''], stores.reject { |name, _| name.empty? })
    failed = CASES.map { |name, (pattern, options)| measure(name, tree, stores, pattern, options) }.compact
    puts failed.empty? ? "All within #{((TARGET - 1) * 100).round}% of the sum." : "Over the target: #{failed.join(', ')}"
    exit(failed.empty? ? 0 : 1)
  ensure
    FileUtils.rm_rf(tmp) if tmp
  end

  # The tree's time and the sum of the stores' times for one case; the
  # case's name when the tree costs more than TARGET times the sum.
  def measure(name, tree, stores, pattern, options)
    tree.search(pattern, **options)
    stores.each_value { |store| store.search(pattern, **options) }
    merged = []
    separate = []
    RUNS.times do
      merged << timed { tree.search(pattern, **options) }
      separate << stores.values.sum { |store| timed { store.search(pattern, **options) } }
    end
    ratio = median(merged) / median(separate)
    puts format('%-22s tree %8.1f ms   one store at a time %8.1f ms   %+.1f%%', name, median(merged) * 1000,
                median(separate) * 1000, (ratio - 1) * 100)
    ratio > TARGET ? name : nil
  end
end

MountsBench.run if $PROGRAM_NAME == __FILE__
