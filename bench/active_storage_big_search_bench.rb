# frozen_string_literal: true

# search_files over one big text blob on S3 (the local server) and
# PostgreSQL, without its text in its row (issue 38, item 12): the time of
# the search beside the time of downloading the blob alone, in the same
# run, each in a fresh process of its own
# (spec/active_storage/support/search_memory.rb):
#
#   stream    the blob in one streamed GET, the way the search now reads it:
#             the fastest the search can be;
#   download  blob.download with a block, Active Storage's own (5 MB ranged
#             GETs on S3), the way the old build read it;
#   search    search_files for the needle in the blob's last line (a 600 s
#             timeout, so the whole blob is searched), this build and the
#             old one (BENCH_AS_OLD, by default /work/old; skipped with a
#             note when missing).
#
# The size is BENCH_AS_BIG_MB (256, the issue's). The target: the search
# within 1.25x the streamed download's time. The issue's figure: the old
# build found nothing within search_files' 10 s, where writing the file took
# 4.2 s.
#
#   ruby bench/active_storage_big_search_bench.rb
require_relative 'active_storage_search_bench'

module ActiveStorageBigSearchBench
  BIG_MB = Integer(ENV.fetch('BENCH_AS_BIG_MB', '256'))
  TARGET = 1.25
  Searches = ActiveStorageSearchBench

  module_function

  def run
    Dir.mktmpdir('as-big-search-bench') do |dir|
      old = Searches.old_script(dir)
      ::Bench::Servers.run do |env|
        Searches.script(env, Searches::SCRIPT, 'migrate')
        puts "Preparing: a #{BIG_MB} MB text file on S3..."
        chat = Searches.script(env, Searches::SCRIPT, 'big', BIG_MB).fetch(:chat)
        report(env, old, chat)
      end
    end
  end

  def report(env, old, chat)
    stream = Searches.script(env, Searches::SCRIPT, 'stream', chat)
    download = Searches.script(env, Searches::SCRIPT, 'download', chat)
    searched = Searches.script(env, Searches::SCRIPT, 'search', chat, 'needle')
    before = Searches.script(env, old, 'search', chat, 'needle') if old
    ratio = ->(outcome) { format('%.2fx the streamed download', outcome[:seconds] / stream[:seconds]) }
    puts "\nsearch_files over one #{BIG_MB} MB blob on S3 (local server) + PostgreSQL" \
         "#{' (old build: BENCH_AS_OLD missing)' unless old}"
    puts Searches.row('download, one streamed GET', stream, '')
    puts Searches.row('download, blob.download (ranged)', download, ratio[download])
    puts Searches.row('search, this build', searched, "#{ratio[searched]}; target <= #{TARGET}x")
    puts Searches.row('search, old build', before, ratio[before]) if before
    verdict(searched, stream, before)
  end

  def verdict(searched, stream, before)
    puts "  found: #{searched[:result]}#{" (old build: #{before[:result]})" if before}"
    met = searched[:result].end_with?('the needle at the end') && searched[:seconds] <= TARGET * stream[:seconds]
    puts met ? 'Target met.' : 'TARGET MISSED.'
    met
  end
end

exit(ActiveStorageBigSearchBench.run ? 0 : 1) if $PROGRAM_NAME == __FILE__
