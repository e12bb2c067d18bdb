# frozen_string_literal: true

module RubyLLM
  class FileStore
    class ActiveStorage < FileStore
      # write_many in batches: a run's copy-back of thousands of files, where
      # one write at a time (its own lock, transaction, queries and Active
      # Record objects for the blob, the row and the attachment) took 38 s
      # for 2,000 small files on SQLite. A batch uploads its blobs before
      # taking the chat's lock (their rows first, see PendingBlobs), then in
      # one transaction checks every path and the room against what the chat
      # holds (read once), inserts the new rows and their attachments with
      # insert_all, and
      # updates the replaced rows. A batch the database refuses is written
      # again one file at a time, so only the files at fault are unsaved.
      # Included by the store, with BatchChecks and BatchRows.
      module BatchWrite
        # Files and bytes in one batch: what a batch holds in memory.
        BATCH_FILES = 500
        BATCH_BYTES = 32 * 1024 * 1024

        # See FileStore#write_many: in batches, each in one transaction.
        def write_many(paths, deadline: nil, &content)
          return read_only_refusal(paths) if read_only? && paths.any?

          saved = []
          unsaved = []
          error = nil
          pending = paths.dup
          first = true
          until pending.empty?
            if deadline && !first && Process.clock_gettime(Process::CLOCK_MONOTONIC) > deadline
              unsaved.concat(pending)
              error ||= FileStores::Native::ManyWrites::OUT_OF_TIME
              break
            end
            first = false
            entries, refused = next_batch(pending, saved, &content)
            done, failed, message = write_batch(entries)
            saved.concat(done)
            unsaved.concat(refused.keys + failed)
            error ||= refused.values.first || message
          end
          [saved, unsaved, error]
        end

        private

        # What write_many on a read-only store answers: nothing saved, every
        # path unsaved, and why.
        def read_only_refusal(paths)
          [[], paths.dup, FileStore::ReadOnlyError.new(FileStore.path(paths.first)).message]
        end

        # Takes the next batch off +pending+: [[path, bytes]...] and
        # {path => why} for those whose content could not be read. A file
        # bigger than a batch holds, given as a File, is written on its own
        # from it, streamed, and goes in +alone+ (saved StoredFiles).
        def next_batch(pending, alone)
          entries = []
          refused = {}
          bytes_in_batch = 0
          while (path = pending.first) && entries.size < BATCH_FILES &&
                (entries.empty? || bytes_in_batch < BATCH_BYTES)
            pending.shift
            begin
              content = yield(path)
              next alone << write_alone(path, content) if big_file?(content)

              bytes = content_of(content)
              entries << [FileStore.path(path), bytes]
              bytes_in_batch += bytes.bytesize
            rescue StandardError => e
              refused[path] = e.message
            end
          end
          [entries, refused]
        end

        def content_of(content)
          FileStores::Native.content_bytes(content).b
        ensure
          content.close if content.respond_to?(:close) && !content.is_a?(String)
        end

        # [saved StoredFiles, unsaved paths, the first reason].
        def write_batch(entries)
          return [[], [], nil] if entries.empty?

          files = prepared(entries)
          begin
            saved, refused = with_lock do
              RubyLLM::ActiveRecord::ChatFile.transaction(requires_new: true) { save_batch(files) }
            end
          rescue StandardError
            files.each { |file| discard(file[:blob]) }
            return one_by_one(entries)
          end
          [saved, refused.keys, refused.values.first]
        end

        # A batch the database refused: each file on its own.
        def one_by_one(entries)
          saved = []
          unsaved = []
          error = nil
          entries.each do |path, bytes|
            saved << write(path, bytes)
          rescue StandardError => e
            unsaved << path
            error ||= e.message
          end
          [saved, unsaved, error]
        end

        # What each file's row needs, with its blob saved and uploaded (the
        # batch's blob rows in one statement).
        def prepared(entries)
          types = entries.map { |path, bytes| FileStores::Native.content_type_for(path, bytes) }
          blobs = upload_all(entries.zip(types).map { |(path, bytes), content_type| [path, bytes, content_type] })
          entries.zip(types, blobs).map do |(path, bytes), content_type, blob|
            { path:, blob:, blob_id: blob.id, content_type:, byte_size: bytes.bytesize,
              digest: FileStores::Native.sha256_hex(bytes), text: batch_text(content_type, bytes) }
          end
        end

        # Insert_all writes the column as it is: an app that encrypts the
        # text gets none in a batch (read and search download the file).
        def batch_text(content_type, bytes)
          model = RubyLLM::ActiveRecord::ChatFile
          return nil if model.respond_to?(:encrypted_attributes) && model.encrypted_attributes.present?

          row_text(content_type, bytes)
        end

        # Inside the lock: checks, inserts and updates; returns [saved
        # StoredFiles, {path => why} refused].
        def save_batch(files)
          accepted, refused = checked(files)
          now = Time.current
          old_blobs = save_rows(accepted, now)
          after_transaction(on_commit: (-> { purge_replaced(old_blobs) } unless old_blobs.empty?),
                            on_rollback: -> { accepted.each { |file| discard(file[:blob]) } })
          files.each { |file| discard(file[:blob]) if refused.key?(file[:path]) }
          [accepted.map { |file| stored(file, now) }, refused]
        end
      end
    end
  end
end
