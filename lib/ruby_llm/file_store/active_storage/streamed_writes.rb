# frozen_string_literal: true

require 'stringio'
require 'tempfile'

module RubyLLM
  class FileStore
    class ActiveStorage < FileStore
      # Writes of any size without the whole file in memory: the content is
      # read once in chunks (Intake: the digest, the line index, the text the
      # row keeps), then handed to Active Storage as an IO, which uploads it
      # in parts. Content that cannot be read twice (a pipe) is spooled to a
      # Tempfile on the way. Included by the store.
      module StreamedWrites
        private

        # What a write needs of +content+ (a String or anything with +read+),
        # read once in chunks: [the IO to upload (rewound; a spooled copy
        # when the content cannot be read again), its summary]. The caller
        # closes the spool (the summary's :spool).
        def take_content(path, content, content_type)
          io = content.is_a?(String) ? StringIO.new(content) : readable(content)
          spool = Tempfile.new('ruby_llm_file_store', binmode: true) unless rewind(io)
          summary = summarize(io, spool)
          (spool || io).rewind
          content_type ||= FileStores::Native.content_type_for(path, summary.delete(:head))
          [spool || io, content_type, kept_of(summary, content_type).merge(spool:)]
        rescue Exception # rubocop:disable Lint/RescueException -- the spool goes whatever stops the write
          spool&.close!
          raise
        end

        # The row's text only when it is the text exactly; the line index only
        # for a text file whose row has no text and that has more than a chunk.
        def kept_of(summary, content_type)
          text = summary[:text] && row_text(content_type, summary[:text])
          indexed = text.nil? && summary[:byte_size] > Streams::CHUNK &&
                    FileStores::Native.text_content_type?(content_type)
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

        # Reads +io+ to its end in chunks through an Intake, copying them to
        # +spool+ when given, into one buffer (a read that takes one), so the
        # pass leaves no garbage that would grow the process meanwhile.
        def summarize(io, spool)
          intake = Intake.new(digest: true, index: true)
          buffer = +''.b
          while (chunk = read_chunk(io, buffer))
            break if chunk.empty?

            intake << chunk
            spool&.write(chunk)
          end
          spool&.flush
          intake.summary
        end

        def read_chunk(io, buffer)
          chunk = begin
            io.read(Streams::CHUNK, buffer)
          rescue ArgumentError # a reader without the buffer argument
            io.read(Streams::CHUNK)
          end
          unless chunk.nil? || chunk.is_a?(String)
            raise ArgumentError, "#{io.class}#read must return bytes, not #{chunk.class}"
          end

          chunk&.force_encoding(Encoding::BINARY)
        end

        # What the row of a kept blob holds, the blob streamed once.
        def kept_content(blob, content_type)
          intake = Intake.new(digest: true, index: false)
          stream_blob(blob) { |chunk| intake << chunk.b }
          summary = intake.summary
          summary.merge(text: summary[:text] && row_text(content_type, summary[:text]))
        end

        # A File too big for a batch of write_many: written alone, streamed.
        def big_file?(content)
          content.is_a?(File) && content.size > BatchWrite::BATCH_BYTES
        end

        def write_alone(path, file)
          write(path, file)
        ensure
          file.close
        end
      end
    end
  end
end
