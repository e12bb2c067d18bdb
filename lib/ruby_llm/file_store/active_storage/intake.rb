# frozen_string_literal: true

module RubyLLM
  class FileStore
    class ActiveStorage < FileStore
      # What a write keeps of content read in chunks (<<), without holding
      # it: its sha256 and line index (computed in Rust as the chunks come),
      # its size, its first bytes (for the content type) and, while it could
      # still be the row's text (up to Blobs::TEXT_IN_ROW_MAX), the whole;
      # and Active Storage's checksum of it.
      class Intake # :nodoc:
        def initialize(digest:, index:)
          @stream = FileStores::Native::TextStream.start({ offset: 1, limit: 0, max_chars: nil },
                                                         { from_line: nil, digest:, index: })
          @head = +''.b
          @text = +''.b
          @checksum = self.class.checksum
        end

        # What Active Storage checksums blobs with: MD5 unless the app chose
        # another (Rails 7.1+), so the write hands the blob its checksum and
        # Active Storage need not read the file again for it.
        def self.checksum
          return ::ActiveStorage.checksum_implementation.new if ::ActiveStorage.respond_to?(:checksum_implementation)

          OpenSSL::Digest.new('MD5')
        end

        # Takes the next +chunk+ (binary).
        def <<(chunk)
          @stream.push(chunk)
          @checksum << chunk
          sniff = FileStores::Native::SNIFF_BYTES - @head.bytesize
          @head << chunk.byteslice(0, sniff) if sniff.positive?
          @text = nil if @text && @text.bytesize + chunk.bytesize > Blobs::TEXT_IN_ROW_MAX
          @text&.<<(chunk)
          self
        end

        # { digest:, byte_size:, head:, text: (nil: too big), line_index:,
        # checksum: (Active Storage's, base64) }.
        def summary
          @stream.finish
          { digest: @stream.digest, byte_size: @stream.byte_size, head: @head, text: @text,
            line_index: @stream.line_index, checksum: @checksum.base64digest }
        end
      end
    end
  end
end
