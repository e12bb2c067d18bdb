# frozen_string_literal: true

module RubyLLM
  class FileStore
    class ActiveStorage < FileStore
      # What the store remembers in the file's row, so a reload, another
      # process or the next job knows it too: the text a converter made
      # (+text+, for the file's version: its digest), the digest of what
      # the model last read (+read_digest+) and which chat attachment the
      # file was kept for (+attachment_key+, on tables that have the
      # column). Where it has no row to keep a thing in, it says so and the
      # store keeps it in its memory.
      #
      # What the model read is kept in the row when the row is the store's
      # own (its owner's, or a shared one for the store without an owner);
      # a read of a shared file through an owner's store is that store's
      # alone, so one owner's read never lets another owner change a file
      # they did not read. A read-only store keeps its reads in the store
      # object, never in the rows: other chats may read the same rows, and
      # no change through it needs the digest.
      class RowMemory # :nodoc:
        def initialize(rows, read_only)
          @rows = rows
          @read_only = read_only
        end

        # The text kept in the file's row for its version, or nil.
        def cached_text(file)
          row = @rows.at(file.path, %i[id path owner_id digest text])
          row.text if row&.digest && row.digest == file.digest
        end

        # Keeps +text+ in the file's row, for its version.
        def cache_text(file, text)
          row = @rows.at(file.path, %i[id path owner_id digest])
          return unless row&.digest && row.digest == file.digest

          # NUL is meaningless in a converter's text, and PostgreSQL refuses it.
          waiting { row.update_columns(text: text&.tr("\0", "\uFFFD")) }
        end

        # The path of the file kept for the attachment with +key+, or nil.
        def attachment_path(key)
          return nil unless model.attachment_keys?

          rows = @rows.visible.where(attachment_key: key).select(:id, :path, :owner_id).to_a
          @rows.preferred(rows).first&.path
        end

        # Keeps +key+ in the row at +path+; false where there is none.
        def remember_attachment(key, path)
          row = model.attachment_keys? && @rows.at(path, %i[id path owner_id])
          return false unless row

          waiting { row.update_columns(attachment_key: key) }
          true
        end

        # The row at +path+ that keeps the store's reads (with +columns+), or nil.
        def reads_row(path, *columns)
          row = @rows.at(path, [:id, :path, :owner_id, *columns])
          row if !@read_only && @rows.own?(row)
        end

        # Keeps +digest+ in the row at +path+; false where it keeps no reads.
        def record_read(path, digest)
          row = reads_row(path)
          return false unless row

          waiting { row.update_columns(read_digest: digest) }
          true
        end

        # Forgets the reads of +paths+ in the store's own rows, one statement
        # a thousand paths.
        def forget_reads(paths)
          return if @read_only

          waiting do
            paths.each_slice(1_000) do |slice|
              @rows.at_paths(@rows.own, slice).where.not(read_digest: nil).update_all(read_digest: nil)
            end
          end
        end

        private

        def model = RubyLLM::ActiveRecord::ChatFile

        # Its writes come outside the chat's lock too (every read_file
        # records its read): on SQLite they wait for another writer as the
        # lock does (ChatLock::SqliteWait), rather than fail at once with
        # "database is locked" where Rails set no wait.
        def waiting(&) = ChatLock::SqliteWait.around(model.connection, &)
      end
    end
  end
end
