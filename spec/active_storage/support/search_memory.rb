# frozen_string_literal: true

# search_files on the Active Storage store, measured in a fresh process of
# its own (run by spec/guarantees/active_storage_search_memory_spec.rb and
# bench/active_storage_search_bench.rb). Commands:
#
#   big MEGABYTES     a chat with one text file of MEGABYTES MB (too big to
#                     keep its text in its row), "needle" in its last line;
#                     prints {"chat": id}
#   rows COUNT MEGABYTES
#                     a chat with COUNT text files of MEGABYTES MB in all,
#                     each keeping its text in its row; "needle" in the last
#   search CHAT_ID PATTERN
#                     searches the chat for PATTERN (no caps but the default
#                     ones, a 600 s timeout); prints the result's first line,
#                     the seconds it took and the growth of the peak
#                     resident set over the resident set before (MB)
#   download CHAT_ID  downloads every blob of the chat in chunks, for the time
#                     a search's download takes alone; prints the same
#   stream CHAT_ID    the same in one streamed GET per blob on S3 (as a
#                     search streams a big blob), blob.download elsewhere
#
# The peak (VmHWM) is reset just before the search (/proc/self/clear_refs),
# so what the process did to start never counts; growth is the peak after
# less the resident set before.
require_relative 'rails_app'
require 'json'

module SearchMemory
  LINE = "#{'lorem ipsum dolor sit amet, consectetur adipiscing ' * 2}\n".freeze

  module_function

  def status(key) = File.read('/proc/self/status')[/#{key}:\s+(\d+)/, 1].to_i / 1024.0

  def text(bytes, needle:)
    body = LINE * (bytes / LINE.bytesize)
    needle ? "#{body}the needle at the end\n" : body
  end

  def migrate
    migration = ActiveStorageSpecApp.migrate!
    ActiveStorageSpecApp.clear_storage!
    { migration: File.basename(migration) }
  end

  def chat = Chat.create!(title: 'search memory')

  # A file written from a temporary file, block by block, and kept with
  # keep_blob: the process that searches never held it.
  def big(megabytes)
    store = RubyLLM::FileStore::ActiveStorage.new(chat)
    Tempfile.create(['big', '.log'], binmode: true) do |file|
      block = text(1 << 20, needle: false)
      megabytes.times { file.write(block) }
      file.write("the needle at the end\n")
      file.flush
      file.rewind
      blob = ActiveStorage::Blob.create_and_upload!(io: file, filename: 'big.log', content_type: 'text/plain')
      store.keep_blob('big.log', blob)
    end
    { chat: store.chat.id }
  end

  def rows(count, megabytes)
    store = RubyLLM::FileStore::ActiveStorage.new(chat)
    size = (megabytes << 20) / count
    paths = Array.new(count) { |n| format('rows/%05d.txt', n) }
    saved, unsaved, error = store.write_many(paths) { |path| text(size, needle: path == paths.last) }
    raise "rows: #{unsaved.size} unsaved: #{error}" unless unsaved.empty? && saved.size == count

    { chat: store.chat.id }
  end

  # Where /proc/self/clear_refs cannot be written, the peak counts from the
  # start: stricter, never laxer.
  def reset_peak
    File.write('/proc/self/clear_refs', '5')
  rescue SystemCallError
    nil
  end

  def measure
    GC.start
    reset_peak
    before = status('VmRSS')
    started = Process.clock_gettime(Process::CLOCK_MONOTONIC)
    result = yield
    seconds = Process.clock_gettime(Process::CLOCK_MONOTONIC) - started
    { result:, seconds: seconds.round(2), growth_mb: (status('VmHWM') - before).round(1) }
  end

  def search(chat_id, pattern)
    store = RubyLLM::FileStore::ActiveStorage.new(Chat.find(chat_id))
    RubyLLM::FileStore::Search.run(RubyLLM::FileStore::ActiveStorage.new(chat), 'warm up') # loads the code first
    measure do
      RubyLLM::FileStore::Search.run(store, pattern, timeout: 600).lines.first.to_s.chomp
    end
  end

  def download(chat_id)
    rows = RubyLLM::ActiveRecord::ChatFile.where(chat_id:).to_a
    blobs = rows.map { |row| row.file_attachment.blob }
    measure do
      blobs.sum do |blob|
        bytes = 0
        blob.download { |chunk| bytes += chunk.bytesize }
        bytes
      end
    end
  end

  def stream(chat_id)
    rows = RubyLLM::ActiveRecord::ChatFile.where(chat_id:).to_a
    blobs = rows.map { |row| row.file_attachment.blob }
    measure do
      blobs.sum do |blob|
        bytes = 0
        if blob.service.respond_to?(:bucket)
          blob.service.bucket.object(blob.key).get { |chunk, *| bytes += chunk.bytesize }
        else
          blob.download { |chunk| bytes += chunk.bytesize }
        end
        bytes
      end
    end
  end
end

command, *args = ARGV
outcome = case command
          when 'migrate' then SearchMemory.migrate
          when 'big' then SearchMemory.big(Integer(args.fetch(0)))
          when 'rows' then SearchMemory.rows(Integer(args.fetch(0)), Integer(args.fetch(1)))
          when 'search' then SearchMemory.search(Integer(args.fetch(0)), args.fetch(1))
          when 'download' then SearchMemory.download(Integer(args.fetch(0)))
          when 'stream' then SearchMemory.stream(Integer(args.fetch(0)))
          else abort "unknown command #{command.inspect}"
          end
puts JSON.generate(outcome)
