# frozen_string_literal: true

require 'stringio'
require 'tempfile'

module RubyLLM
  class FileStore
    class ActiveStorage < FileStore
      # One write's content, of any size, without the whole file in memory:
      # read once in chunks (Intake: the digest, the line index, the text the
      # row keeps), then handed to Active Storage as an IO, which uploads it
      # in parts. Content that cannot be read twice (a pipe) is spooled to a
      # Tempfile on the way; close removes it.
      class Upload # :nodoc:
        # { digest:, byte_size:, text: (the row's, or nil), line_index:, checksum: }
        attr_reader :summary, :content_type
        # The uploaded blob (see #upload), or nil.
        attr_reader :blob

        # Reads +content+ (a String or anything with +read+) for +path+.
        def initialize(path, content, content_type)
          @path = path
          @io = content.is_a?(String) ? StringIO.new(content) : readable(content)
          @spool = Tempfile.new('ruby_llm_file_store', binmode: true) unless rewind(@io)
          summary = summarize
          @io = @spool || @io
          @io.rewind
          @content_type = content_type || FileStores::Native.content_type_for(path, summary.delete(:head))
          @summary = kept_of(summary)
        rescue Exception # rubocop:disable Lint/RescueException -- the spool goes whatever stops the write
          close
          raise
        end

        # Uploads the content to a new blob of +blobs+ (see Blobs#upload_io).
        def upload(blobs)
          @blob = blobs.upload_io(@path, @io, @content_type, @summary)
        end

        def close
          @spool&.close!
          @spool = nil
        end

        # What the row of a kept +blob+ holds, the blob streamed once with +blobs+.
        def self.kept(blobs, blob, content_type)
          intake = Intake.new(digest: true, index: false)
          blobs.stream(blob) { |chunk| intake << chunk.b }
          summary = intake.summary
          summary.merge(text: summary[:text] && Blobs.row_text(content_type, summary[:text]))
        end

        # With history, HistoryRecorder (in front of every store) holds the
        # chat's lock around a write, to record its version; in front of it,
        # this uploads the content first, as a write without history does,
        # so the lock is held only to save the file's row and its version,
        # never during an upload. The store's write takes the Upload as it is.
        module BeforeLock # :nodoc:
          # See ActiveStorage#write.
          def write(path, content, content_type: nil)
            return super if content.is_a?(::ActiveStorage::Blob) || content.is_a?(Upload) || !history_recording?

            refuse_if_read_only(path) # before any upload (then ReadOnlyGuard)
            path = FileStore.path(path)
            upload = Upload.new(path, content, content_type)
            begin
              upload.upload(@blobs)
              super(path, upload, content_type: upload.content_type)
            rescue Exception # rubocop:disable Lint/RescueException -- a write stopped before its row must not leave a blob
              @blobs.discard(upload.blob) if upload.blob # again after store_blob's: a blob already gone is no harm
              raise
            ensure
              upload.close
            end
          end
        end

        private

        # The row's text only when it is the text exactly; the line index only
        # for a text file whose row has no text and that has more than a chunk.
        def kept_of(summary)
          text = summary[:text] && Blobs.row_text(@content_type, summary[:text])
          indexed = text.nil? && summary[:byte_size] > Streams::CHUNK &&
                    FileStores::Native.text_content_type?(@content_type)
          summary.merge(text:, line_index: (summary[:line_index] if indexed))
        end

        def readable(content)
          return content if content.respond_to?(:read)

          raise ArgumentError, "content must be a String or an IO, not #{content.class}"
        end

        # Rewinds +io+; false when it cannot be read again (a pipe, a socket,
        # a reader without rewind), so the write spools it.
        def rewind(io)
          return false unless io.respond_to?(:rewind)

          io.rewind
          true
        rescue IOError, SystemCallError
          false
        end

        # Reads the content to its end in chunks through an Intake, copying
        # them to the spool when there is one, into one buffer (a read that
        # takes one), so the pass leaves no garbage that would grow the
        # process meanwhile.
        def summarize
          intake = Intake.new(digest: true, index: true)
          buffer = +''.b
          while (chunk = read_chunk(buffer))
            break if chunk.empty?

            intake << chunk
            @spool&.write(chunk)
          end
          @spool&.flush
          intake.summary
        end

        def read_chunk(buffer)
          chunk = begin
            @io.read(Streams::CHUNK, buffer)
          rescue ArgumentError # a reader without the buffer argument
            @io.read(Streams::CHUNK)
          end
          unless chunk.nil? || chunk.is_a?(String)
            raise ArgumentError, "#{@io.class}#read must return bytes, not #{chunk.class}"
          end

          chunk&.force_encoding(Encoding::BINARY)
        end
      end
    end
  end
end
