# frozen_string_literal: true

module RubyLLM
  class FileStore
    class ActiveStorage < FileStore
      # A file of any size read without the whole of it in memory (writes:
      # Upload): read_lines takes the first lines through ranged downloads,
      # deeper ones from the blob's line index (where its lines start, every
      # megabyte) or else by streaming the blob and counting lines;
      # each_chunk streams the blob. Files whose text is in their row are
      # read from it.
      class Streams # :nodoc:
        # Bytes read, downloaded or pushed at a time.
        CHUNK = 1024 * 1024

        # The key of the line index in the metadata of a blob the store
        # uploaded: { "lines" => [...], "offsets" => [...], "total" => n,
        # "signature" => ... }, believed only as LineIndex says.
        LINE_INDEX = 'ruby_llm_line_index'

        def initialize(rows, blobs)
          @rows = rows
          @blobs = blobs
        end

        # See RubyLLM::FileStore#read_lines. From the row's text when it is
        # the file; else from the blob, with ranged downloads of what the
        # window needs when the blob has a line index, or streamed (memory for
        # the lines shown) when it has none, which the store then keeps.
        def read_lines(path, offset: 1, limit: nil, max_chars: nil)
          LineWindow.check_arguments(offset, limit, max_chars)
          window = { offset:, limit:, max_chars: }
          row = @rows.with_text(FileStore.path(path))
          text = Blobs.exact_text(row)
          return FileStores::Native.file_line_window(text, window) if text

          blob = @blobs.of(row)
          index = LineIndex.trusted(blob)
          return indexed_window(blob, index, window, row.digest) if index

          streamed_window(blob, window, row.digest)
        end

        # See RubyLLM::FileStore::ActiveStorage#each_chunk.
        def each_chunk(path, &block)
          row = @rows.with_text(path)
          text = Blobs.exact_text(row)
          return block.call(text) && nil if text

          @blobs.stream(@blobs.of(row), &block)
          nil
        end

        private

        # The window from the indexed line start nearest before +offset+,
        # downloaded a megabyte at a time until the window is complete.
        def indexed_window(blob, index, window, digest)
          total = index['total']
          if window[:offset] > total || window[:limit]&.zero?
            return LineWindow.new(text: '', shown: 0, total:, cut: false, digest:)
          end

          line, at = index_entry(index, window[:offset])
          stream = FileStores::Native::TextStream.start(window, { from_line: (line unless at.zero?),
                                                                  digest: false, index: false })
          download_from(blob, at) { |chunk| stream.push(chunk) }
          shown = stream.finish
          LineWindow.new(text: shown.text, shown: shown.shown, total:, cut: shown.cut, digest:)
        end

        # [line, offset]: the entry of +index+ nearest before line +first+.
        def index_entry(index, first)
          entry = (index['lines'].bsearch_index { |line| line > first } || index['lines'].size) - 1
          entry.negative? ? [1, 0] : [index['lines'][entry], index['offsets'][entry]]
        end

        # Yields +blob+'s bytes from +at+ in ranged downloads of CHUNK, while
        # the block returns true.
        def download_from(blob, at)
          while at < blob.byte_size
            chunk = blob.service.download_chunk(blob.key, at...[at + CHUNK, blob.byte_size].min)
            break if chunk.empty?

            at += chunk.bytesize
            break unless yield(chunk)
          end
        end

        # The window of the whole blob streamed; the line index made on the
        # way is kept in a blob the store uploaded, for the next read.
        def streamed_window(blob, window, digest)
          stream = FileStores::Native::TextStream.start(window, { from_line: nil, digest: false, index: true })
          @blobs.stream(blob) { |chunk| stream.push(chunk) }
          shown = stream.finish
          keep_line_index(blob, stream.line_index)
          LineWindow.new(**shown.to_h, digest:)
        end

        def keep_line_index(blob, index)
          signed = LineIndex.signed(blob.key, index) if blob.metadata[Blobs::MARK] && blob.byte_size > CHUNK
          return unless signed

          blob.update_columns(metadata: blob.metadata.merge(LINE_INDEX => signed))
        rescue StandardError => e # an index is only a shortcut: the read stands without it
          ::ActiveRecord::Base.logger&.warn('RubyLLM::FileStore::ActiveStorage kept no line index for blob ' \
                                            "#{blob.key}: #{e.class}: #{e.message}")
        end
      end
    end
  end
end
