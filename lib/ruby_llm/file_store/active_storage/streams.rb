# frozen_string_literal: true

module RubyLLM
  class FileStore
    class ActiveStorage < FileStore
      # A file of any size read without the whole of it in memory (writes:
      # StreamedWrites): read_lines takes the first lines through ranged downloads, deeper
      # ones from the blob's line index (where its lines start, every
      # megabyte) or else by streaming the blob and counting lines;
      # each_chunk streams the blob. Files whose text is in their row are
      # read from it, as before. Included by the store.
      module Streams
        # Bytes read, downloaded or pushed at a time.
        CHUNK = 1024 * 1024

        # Bytes streamed from a blob between two garbage collections (see stream_blob).
        GC_EVERY = 32 * 1024 * 1024

        # The key of the line index in the metadata of a blob the store
        # uploaded: { "lines" => [...], "offsets" => [...], "total" => n,
        # "signature" => ... }, believed only as LineIndex says.
        LINE_INDEX = 'ruby_llm_line_index'

        # See RubyLLM::FileStore#read_lines. From the row's text when it is
        # the file; else from the blob, with ranged downloads of what the
        # window needs when the blob has a line index, or streamed (memory for
        # the lines shown) when it has none, which the store then keeps.
        def read_lines(path, offset: 1, limit: nil, max_chars: nil)
          LineWindow.check_arguments(offset, limit, max_chars)
          row = text_row(FileStore.path(path))
          window = { offset:, limit:, max_chars: }
          text = exact_text(row)
          return FileStores::Native.file_line_window(text, window) if text

          blob = blob_of(row)
          index = LineIndex.trusted(blob)
          return indexed_window(blob, index, window, row.digest) if index

          streamed_window(blob, window, row.digest)
        end

        # Yields the bytes of the file at +path+ in chunks (Strings), in
        # order: its row's text when that is the file, else its blob
        # downloaded in parts, so a file of any size copies in bounded
        # memory. Each chunk is emptied when the block returns, as
        # IO#read's buffer is overwritten: copy what you keep (+chunk.dup+).
        # Returns nil; an Enumerator without a block (whose chunks are
        # emptied the same way: use it to copy, not to collect).
        def each_chunk(path, &block)
          return enum_for(:each_chunk, path) unless block

          row = text_row(FileStore.path(path))
          text = exact_text(row)
          return block.call(text) && nil if text

          stream_blob(blob_of(row), &block)
          nil
        end

        private

        def text_row(path)
          row_at(path, [*Rows::LIST_COLUMNS, :text]) || raise(RubyLLM::FileNotFoundError, "#{path} does not exist")
        end

        # The row's text as bytes when it is the file exactly (its digest says so).
        def exact_text(row)
          text = row.text
          text.b if text && text.bytesize == row.byte_size && FileStores::Native.sha256_hex(text) == row.digest
        end

        def blob_of(row)
          ::ActiveStorage::Attachment.find_by(record: row, name: 'file')&.blob ||
            raise(RubyLLM::FileNotFoundError, "#{row.path} has no file in Active Storage")
        end

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

        # Yields the whole of +blob+ in the parts its service downloads (5 MB
        # on S3, one request each), emptying each part once the block has
        # taken it, with a full garbage collection every GC_EVERY bytes: what
        # the S3 client leaves of each request (its response buffers) is old
        # by then, and left to Ruby's old-object malloc limit (128 MB) it grew
        # a 167 MB copy from S3 by 86-101 MB. A collection costs milliseconds
        # next to downloading 32 MB.
        def stream_blob(blob)
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

        # The window of the whole blob streamed; the line index made on the
        # way is kept in a blob the store uploaded, for the next read.
        def streamed_window(blob, window, digest)
          stream = FileStores::Native::TextStream.start(window, { from_line: nil, digest: false, index: true })
          stream_blob(blob) { |chunk| stream.push(chunk) }
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
