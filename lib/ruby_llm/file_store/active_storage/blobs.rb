# frozen_string_literal: true

require 'stringio'

module RubyLLM
  class FileStore
    class ActiveStorage < FileStore
      # A store's blobs in Active Storage. A write commits its blob's row
      # (marked as this store's, see PendingBlobs), uploads the file, then
      # takes the chat's lock and saves the file's row and attaches the blob
      # inside, in a savepoint: no reader sees a row whose file is not there
      # yet, a write that fails, or whose transaction rolls back later,
      # deletes what it uploaded (discard), and one killed on the way leaves
      # a blob that purge_orphans finds. A blob that a file no longer uses
      # is purged after the commit, unless another attachment still uses it.
      class Blobs # :nodoc:
        # A text file up to this size keeps its text in its row too, so
        # search and read need no download.
        TEXT_IN_ROW_MAX = 8 * 1024 * 1024

        # The metadata key that marks the blobs this store uploaded, so
        # purge_orphans never touches a blob of the app's own.
        MARK = 'ruby_llm_file_store'

        # Bytes streamed from a blob between two garbage collections (see stream).
        GC_EVERY = 32 * 1024 * 1024

        def initialize(lock)
          @pending = PendingBlobs.new(lock)
        end

        # Blobs for [[path, bytes, content_type]...]: their rows saved first,
        # in one statement (see PendingBlobs), then their files uploaded.
        # Unfurl and upload_without_unfurling are the two halves of
        # ActiveStorage::Blob#upload (create_and_upload! calls them so).
        # After +deadline+ (a Process::CLOCK_MONOTONIC time) no upload is
        # started: the blobs of the entries before it are returned, the
        # others' rows deleted (their files were never sent: no request to
        # the service, which may be the one failing or slow).
        def upload_all(entries, deadline: nil)
          ios = entries.map { |_path, bytes, _content_type| StringIO.new(bytes) }
          blobs = entries.zip(ios).map do |(path, _bytes, content_type), io|
            new_blob(path, content_type).tap { |blob| blob.unfurl(io, identify: false) }
          end
          send_files(@pending.save(blobs), ios, deadline)
        end

        # A blob with what +io+ holds (from where it is, to its end: the
        # content an Upload describes, with its size and checksum, so Active
        # Storage reads it only to upload it), its row saved first (see
        # PendingBlobs), then uploaded. Keeps the line index in its metadata
        # (see Streams).
        def upload_io(path, io, content_type, summary)
          blob = new_blob(path, content_type, line_index: summary[:line_index])
          blob.assign_attributes(checksum: summary.fetch(:checksum), byte_size: summary.fetch(:byte_size))
          saved = @pending.save([blob]).first
          saved.upload_without_unfurling(io)
          saved
        rescue Exception # rubocop:disable Lint/RescueException -- an interrupt mid-upload must not leave a blob
          discard(saved) if saved
          raise
        end

        # Deletes an uploaded blob that no file kept: its file on the
        # service, and its row when one is left that nothing is attached to.
        def discard(blob)
          blob.service.delete(blob.key)
          @pending.delete_unattached([blob.id]) if blob.id
        rescue StandardError => e
          ::ActiveRecord::Base.logger&.error('RubyLLM::FileStore::ActiveStorage could not delete blob ' \
                                             "#{blob.key}: #{e.class}: #{e.message}")
        end

        # The blob attached to +row+; raises RubyLLM::FileNotFoundError.
        def of(row)
          ::ActiveStorage::Attachment.find_by(record: row, name: 'file')&.blob ||
            raise(RubyLLM::FileNotFoundError, "#{row.path} has no file in Active Storage")
        end

        # The bytes of +row+ (loaded with its text): from its text when that
        # is the file exactly, else downloaded whole.
        def bytes(row) = Blobs.exact_text(row) || of(row).download.b

        # Yields the whole of +blob+ in the parts its service downloads (5 MB
        # on S3, one request each), emptying each part once the block has
        # taken it, with a full garbage collection every GC_EVERY bytes: what
        # the S3 client leaves of each request (its response buffers) is old
        # by then, and left to Ruby's old-object malloc limit (128 MB) it grew
        # a 167 MB copy from S3 by 86-101 MB. A collection costs milliseconds
        # next to downloading 32 MB.
        def stream(blob)
          since = 0
          blob.download do |chunk|
            yield chunk
            since += chunk.bytesize
            chunk.clear unless chunk.frozen?
            next if since < GC_EVERY

            GC.start
            since = 0
          end
        end

        # The row's text as bytes when it is the file exactly (its digest says so).
        def self.exact_text(row)
          text = row.text
          text.b if text && text.bytesize == row.byte_size && FileStores::Native.sha256_hex(text) == row.digest
        end

        # The text a text file keeps in its row: its bytes, when they are the
        # text exactly (UTF-8, no BOM, no NUL, which PostgreSQL refuses).
        def self.row_text(content_type, bytes)
          return nil unless bytes.bytesize <= TEXT_IN_ROW_MAX && FileStores::Native.text_content_type?(content_type)

          text = bytes.dup.force_encoding(Encoding::UTF_8)
          return nil unless text.valid_encoding? && !text.start_with?("\uFEFF") && !text.include?("\0")

          text
        end

        # Whether +deadline+ (a Process::CLOCK_MONOTONIC time; nil: none) has passed.
        def self.out_of_time?(deadline)
          deadline && Process.clock_gettime(Process::CLOCK_MONOTONIC) > deadline
        end

        private

        # Uploads each of the saved +blobs+ from its IO until +deadline+
        # passes; returns those sent.
        def send_files(blobs, ios, deadline)
          sent = []
          blobs.zip(ios).each do |blob, io|
            break if Blobs.out_of_time?(deadline)

            sent << blob
            blob.upload_without_unfurling(io)
          end
          sent
        rescue Exception # rubocop:disable Lint/RescueException -- an interrupt mid-upload must not leave a blob
          sent.each { |blob| discard(blob) }
          raise
        ensure
          unsent = blobs.drop(sent.size)
          @pending.delete_unattached(unsent.map(&:id)) unless unsent.empty?
        end

        def new_blob(path, content_type, line_index: nil)
          metadata = { identified: true, analyzed: true, MARK => true }
          blob = ::ActiveStorage::Blob.new(filename: File.basename(path), content_type:, metadata:)
          signed = line_index && LineIndex.signed(blob.key, line_index)
          blob.metadata[Streams::LINE_INDEX] = signed if signed
          blob
        end
      end
    end
  end
end
