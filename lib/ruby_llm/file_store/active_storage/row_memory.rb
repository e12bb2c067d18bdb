# frozen_string_literal: true

module RubyLLM
  class FileStore
    class ActiveStorage < FileStore
      # What the store remembers in the file's row, so a reload, another
      # process or the next job knows it too: the text a converter made
      # (+text+, for the file's version: its digest), the digest of what
      # the model last read (+read_digest+) and which chat attachment the
      # file was kept for (+attachment_key+, on tables that have the
      # column). A path with no row falls back to the store's memory.
      # Included by the store.
      module RowMemory
        # The text kept in the file's row for its version, or nil. See RubyLLM::FileStore#cached_text.
        def cached_text(file)
          row = row_at(file.path, %i[id path owner_id digest text])
          row.text if row&.digest && row.digest == file.digest
        end

        # Keeps +text+ in the file's row, for its version. See RubyLLM::FileStore#cache_text.
        def cache_text(file, text)
          row = row_at(file.path, %i[id path owner_id digest])
          return unless row&.digest && row.digest == file.digest

          # NUL is meaningless in a converter's text, and PostgreSQL refuses it.
          waiting { row.update_columns(text: text&.tr("\0", "\uFFFD")) }
        end

        # The path the chat kept the attachment with +key+ at, from the rows. See
        # RubyLLM::FileStore#attachment_path.
        def attachment_path(key)
          return super unless RubyLLM::ActiveRecord::ChatFile.attachment_keys?

          rows = visible_rows.where(attachment_key: key).select(:id, :path, :owner_id).to_a
          preferred(rows).first&.path || super
        end

        # Remembers in the file's row that the attachment with +key+ was kept at +path+. See
        # RubyLLM::FileStore#remember_attachment.
        def remember_attachment(key, path)
          path = FileStore.path(path)
          row = RubyLLM::ActiveRecord::ChatFile.attachment_keys? && row_at(path, %i[id path owner_id])
          return super unless row

          waiting { row.update_columns(attachment_key: key) }
          path
        end

        # What the model read is kept in the row when the row is this
        # store's own (its owner's, or a shared one for the store without
        # an owner); a read of a shared file through an owner's store is
        # that store's alone, kept in its memory, so one owner's read never
        # lets another owner change a file they did not read.
        def read_digest(path)
          path = FileStore.path(path)
          row = row_at(path, %i[id path owner_id read_digest])
          own_row?(row) ? row.read_digest : super
        end

        # Keeps the digest the model read in the file's row. See RubyLLM::FileStore#record_read.
        def record_read(path, digest)
          path = FileStore.path(path)
          row = row_at(path, %i[id path owner_id])
          return super unless own_row?(row)

          waiting { row.update_columns(read_digest: digest) }
          super(path, nil)
        end

        # One statement for this store's own rows (see record_read), and the
        # store's memory for the rest.
        def forget_reads(paths)
          paths = paths.map { |path| FileStore.path(path) }
          unless read_only?
            waiting do
              paths.each_slice(1_000) do |slice|
                at_paths(own_rows, slice).where.not(read_digest: nil).update_all(read_digest: nil)
              end
            end
          end
          forget_reads_in_memory(paths)
        end

        private

        # Its writes come outside the chat's lock too (every read_file
        # records its read): on SQLite they wait for another writer as the
        # lock does (ChatLock::SqliteWait), rather than fail at once with
        # "database is locked" where Rails set no wait.
        def waiting(&) = ChatLock::SqliteWait.around(RubyLLM::ActiveRecord::ChatFile.connection, &)

        # A read-only store keeps what its model read in the store object,
        # never in the rows: other chats may read the same rows, and no
        # change through it needs the digest.
        def own_row?(row)
          !read_only? && !row.nil? && (@owner.nil? || !row.owner_id.nil?)
        end
      end
    end
  end
end
