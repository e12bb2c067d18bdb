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

        def download_to_file(blob, stop)
          file = Tempfile.new('ruby_llm_search', binmode: true)
          blob.download do |chunk|
            file.write(chunk)
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
