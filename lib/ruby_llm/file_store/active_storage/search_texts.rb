# frozen_string_literal: true

require 'tempfile'

module RubyLLM
  class FileStore
    class ActiveStorage < FileStore
      # What the store hands search_files (RubyLLM::FileStore::Search) for a
      # part of the files it searches, without ever holding a large file: a
      # text kept in the row, or a blob with none downloaded in chunks to a
      # temporary file that the engine reads in buffers. Included by the
      # store.
      module SearchTexts
        # A text file without its text in the row up to this size is
        # downloaded into memory; a larger one to a temporary file.
        DOWNLOAD_IN_MEMORY_MAX = 1 << 20
        # Bytes downloaded between two minor garbage collections (see download_to_file).
        GARBAGE_BYTES = 8 << 20
        # See search_part_bytes.
        SEARCH_PART_BYTES = 8 << 20

        # Bytes of the files searched per part, PART_BYTES's quarter:
        # the texts a part loads from the rows are held until it is searched.
        def search_part_bytes = SEARCH_PART_BYTES

        # [path, content] for the search engine, for many files in one query:
        # a text file's bytes from its row when they are there (frozen, so
        # the engine reads them without a copy), else its blob (a String up
        # to DOWNLOAD_IN_MEMORY_MAX bytes, a Tempfile above, which the caller
        # closes); another file's converted text for its version, or nil.
        # Files deleted since they were listed are left out. +stop+, when
        # given, is asked between downloaded chunks whether the search is out
        # of time: a download stops there, and the engine, past its deadline,
        # reports the search stopped rather than search a part of the file.
        def texts_for_search(files, stop: nil)
          collect_garbage if files.sum(&:byte_size) >= DOWNLOAD_IN_MEMORY_MAX
          made = []
          by_path = rows_for_search(files)
          files.filter_map do |file|
            row = by_path[file.path] or next
            next [file.path, search_content(row, stop, made)] if FileStores::Native.text_content_type?(row.content_type)

            [file.path, (row.text.b.freeze if row.text && row.digest == file.digest)]
          end
        rescue Exception # rubocop:disable Lint/RescueException -- an interrupt must not leave temporary files
          made.each(&:close!)
          raise
        end

        private

        # A minor collection before a part of 1 MB or more is loaded, so the
        # texts of the part searched before (garbage now) are freed first:
        # left to itself, Ruby's collector let 70 MB of them pile up.
        def collect_garbage = GC.start(full_mark: false, immediate_sweep: true)

        def rows_for_search(files)
          rows = at_paths(visible_rows, files.map(&:path)).select(*Rows::LIST_COLUMNS, :text).to_a
          preferred(rows).to_h { |row| [row.path, row] }
        end

        def search_content(row, stop, made)
          text = row.text
          if text && text.bytesize == row.byte_size && FileStores::Native.sha256_hex(text) == row.digest
            return text.b.freeze
          end

          blob = ::ActiveStorage::Attachment.find_by(record: row, name: 'file')&.blob
          raise RubyLLM::FileNotFoundError, "#{row.path} has no file in Active Storage" unless blob
          return blob.download.b.freeze if row.byte_size <= DOWNLOAD_IN_MEMORY_MAX

          download_to_file(blob, stop).tap { |file| made << file }
        end

        # A download leaves garbage behind at every chunk (on S3, the 5 MB
        # response and the buffers that made it), which Ruby's collector,
        # left to itself, lets grow to hundreds of MB over a large file:
        # a minor collection every GARBAGE_BYTES downloaded keeps it bounded.
        def download_to_file(blob, stop)
          file = Tempfile.new('ruby_llm_search', binmode: true)
          since_collected = 0
          blob.download do |chunk|
            file.write(chunk)
            since_collected += chunk.bytesize
            if since_collected >= GARBAGE_BYTES
              collect_garbage
              since_collected = 0
            end
            break if stop&.call
          end
          file.flush
          file
        rescue Exception # rubocop:disable Lint/RescueException -- as in texts_for_search
          file&.close!
          raise
        end
      end
    end
  end
end
