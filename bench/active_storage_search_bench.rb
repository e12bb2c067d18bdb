# frozen_string_literal: true

# search_files on the Active Storage store, on the local S3 server and
# PostgreSQL (started here, see bench/support/servers.rb), measured as the
# issue (#28) asks, each search in a fresh process of its own
# (spec/active_storage/support/search_memory.rb) reporting its seconds and
# the growth of its peak resident set:
#
#   big   one text file of BENCH_AS_BIG_MB (512) MB, too big to keep its text
#         in its row: search_files for the needle in its last line, beside
#         downloading the blob alone (blob.download in chunks, the same run);
#   rows  a chat of BENCH_AS_ROWS (2,000) text files with BENCH_AS_ROWS_MB
#         (500) MB of text in their rows: search_files for the needle in the
#         last one.
#
# Targets: big within 64 MB of growth and 1.5x the download's time; rows
# within 128 MB. The old build (BENCH_AS_OLD, by default /work/old, a built
# checkout of main before the change; skipped with a note when missing) runs
# the same searches on the same data, in the same run; the issue's own
# figures (Disk service, SQLite, a 300 MB file) are printed beside them.
#
# Usage, from the repository root after `rake compile` (or: rake bench):
#
#   ruby bench/active_storage_search_bench.rb
#
# Preparing the data takes minutes (the local S3 server takes uploads
# slowly); needs bin/setup's PostgreSQL and the S3 server's virtualenv.
require 'fileutils'
require 'json'
require 'open3'
require 'rbconfig'
require 'tmpdir'
require_relative 'support/servers'

module ActiveStorageSearchBench
  ROOT = File.expand_path('..', __dir__)
  SCRIPT = File.join(ROOT, 'spec/active_storage/support/search_memory.rb')
  BIG_MB = Integer(ENV.fetch('BENCH_AS_BIG_MB', '512'))
  ROWS = Integer(ENV.fetch('BENCH_AS_ROWS', '2000'))
  ROWS_MB = Integer(ENV.fetch('BENCH_AS_ROWS_MB', '500'))
  OLD = ENV.fetch('BENCH_AS_OLD', '/work/old')
  TODAY = 'issue, Disk + SQLite, 300 MB: 1.4 s, peak 1,508 MB'

  module_function

  def script(env, path, *args)
    out, err, status = Open3.capture3(env, RbConfig.ruby, path, *args.map(&:to_s))
    raise "#{File.basename(path)} #{args.first} failed: #{err}#{out}" unless status.success?

    JSON.parse(out.lines.last, symbolize_names: true)
  end

  # The old build's lib and spec application beside this search_memory.rb,
  # in a folder of their own (the script loads the lib beside it).
  def old_script(dir)
    return nil unless File.exist?(File.join(OLD, 'lib/ruby_llm/file_stores/native.rb'))

    FileUtils.mkdir_p(File.join(dir, 'spec/active_storage'))
    FileUtils.cp_r(File.join(OLD, 'lib'), dir)
    FileUtils.cp_r(File.join(OLD, 'spec/active_storage/support'), File.join(dir, 'spec/active_storage'))
    FileUtils.cp(SCRIPT, File.join(dir, 'spec/active_storage/support'))
    File.join(dir, 'spec/active_storage/support/search_memory.rb')
  end

  def row(name, outcome, target)
    format('  %-34<name>s %8<seconds>.2f s %9<growth>.1f MB   %<target>s',
           name:, seconds: outcome[:seconds], growth: outcome[:growth_mb], target:)
  end

  def run
    Dir.mktmpdir('as-search-bench') do |dir|
      old = old_script(dir)
      Bench::Servers.run do |env|
        script(env, SCRIPT, 'migrate')
        puts "Preparing: a #{BIG_MB} MB file, and #{ROWS} files with #{ROWS_MB} MB in their rows (minutes)..."
        big = script(env, SCRIPT, 'big', BIG_MB).fetch(:chat)
        rows = script(env, SCRIPT, 'rows', ROWS, ROWS_MB).fetch(:chat)
        report(env, old, big, rows)
      end
    end
  end

  def report(env, old, big, rows)
    download = script(env, SCRIPT, 'download', big)
    searched = script(env, SCRIPT, 'search', big, 'needle')
    in_rows = script(env, SCRIPT, 'search', rows, 'needle')
    ratio = searched[:seconds] / download[:seconds]
    puts "\nsearch_files on S3 (local server) + PostgreSQL#{' (old build: BENCH_AS_OLD missing)' unless old}"
    puts row("download #{BIG_MB} MB blob alone", download, '')
    puts row("search #{BIG_MB} MB file", searched, format('%.2fx the download; targets <= 64 MB, <= 1.5x', ratio))
    puts row('  old build', script(env, old, 'search', big, 'needle'), TODAY) if old
    puts row("search #{ROWS} files, #{ROWS_MB} MB in rows", in_rows, 'target <= 128 MB')
    puts row('  old build', script(env, old, 'search', rows, 'needle'), '') if old
    verdict(searched[:growth_mb] <= 64 && ratio <= 1.5 && in_rows[:growth_mb] <= 128)
  end

  def verdict(met)
    puts met ? 'Targets met.' : 'TARGETS MISSED.'
    met
  end
end

exit(ActiveStorageSearchBench.run ? 0 : 1) if $PROGRAM_NAME == __FILE__
