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
      class BatchWrite # :nodoc:
        # Files and bytes in one batch: what a batch holds in memory.
        BATCH_FILES = 500
        BATCH_BYTES = 32 * 1024 * 1024

        # A batch writer for +store+, whose rows and blobs these are.
        def initialize(store, rows, blobs)
          @store = store
          @rows = rows
          @blobs = blobs
        end

        # See FileStore#write_many: in batches, each in one transaction. The
        # deadline is looked at before each file's upload: after it, no file
        # is started, and the rest are named unsaved, as out of time. A
        # file the storage service fails to take is named unsaved with the
        # service's error (see Tools::ServiceError).
        def write_many(paths, deadline: nil, &content)
          saved = []
          unsaved = []
          error = nil
          pending = paths.dup
          until pending.empty?
            if Blobs.out_of_time?(deadline)
              unsaved.concat(pending)
              error ||= FileStores::Native::ManyWrites::OUT_OF_TIME
              break
            end
            entries, refused = next_batch(pending, saved, deadline, &content)
            done, failed, message = write_batch(entries, deadline)
            saved.concat(done)
            unsaved.concat(refused.keys + failed)
            error ||= refused.values.first || message
          end
          [saved, unsaved, error]
        end

        private

        # Takes the next batch off +pending+: [[path, bytes]...] and
        # {path => why} for those whose content could not be read. A file
        # bigger than a batch holds, given as a File, is written on its own
        # from it, streamed, and goes in +alone+ (saved StoredFiles).
        def next_batch(pending, alone, deadline)
          entries = []
          refused = {}
          bytes_in_batch = 0
          while (path = pending.first) && entries.size < BATCH_FILES &&
                (entries.empty? || bytes_in_batch < BATCH_BYTES) && !Blobs.out_of_time?(deadline)
            pending.shift
            begin
              bytes = take(path, alone) { yield(path) } or next
              entries << [FileStore.path(path), bytes]
              bytes_in_batch += bytes.bytesize
            rescue StandardError => e
              refused[path] = unsaved_reason(e)
            end
          end
          [entries, refused]
        end

        # The bytes of the content at +path+, closed once read; nil for a File
        # too big for a batch, written alone, streamed, and put in +alone+.
        def take(path, alone)
          content = yield
          return FileStores::Native::IoContent.bytes(content).b unless content.is_a?(File) && content.size > BATCH_BYTES

          alone << @store.write(path, content)
          nil
        ensure
          content.close if content.respond_to?(:close) && !content.is_a?(String)
        end

        # [saved StoredFiles, unsaved paths, the first reason]. Files whose
        # upload the deadline left unstarted are unsaved, as out of time; a
        # batch the service failed is unsaved whole, its blobs gone.
        def write_batch(entries, deadline)
          return [[], [], nil] if entries.empty?

          files = prepared(entries, deadline)
          late = entries.drop(files.size).map(&:first)
          saved, refused = save_prepared(files, entries.take(files.size), deadline)
          late_error = FileStores::Native::ManyWrites::OUT_OF_TIME unless late.empty?
          [saved, refused.keys + late, refused.values.first || late_error]
        rescue StandardError => e
          raise unless Tools::ServiceError.match?(e)

          [[], entries.map(&:first), unsaved_reason(e)]
        end

        # Saves the rows of the uploaded +files+ under the chat's lock:
        # [saved StoredFiles, {path => why}].
        def save_prepared(files, entries, deadline)
          return [[], {}] if files.empty?

          @store.with_lock do
            RubyLLM::ActiveRecord::ChatFile.transaction(requires_new: true) { save_batch(files) }
          end
        rescue StandardError
          files.each { |file| @blobs.discard(file[:blob]) }
          saved, unsaved, error = one_by_one(entries, deadline)
          [saved, unsaved.to_h { |path| [path, error] }]
        end

        # What each file's row needs, with its blob saved and uploaded (the
        # batch's blob rows in one statement).
        def prepared(entries, deadline)
          types = entries.map { |path, bytes| FileStores::Native.content_type_for(path, bytes) }
          blobs = @blobs.upload_all(entries.zip(types).map { |(path, bytes), type| [path, bytes, type] }, deadline:)
          entries.take(blobs.size).zip(types, blobs).map do |(path, bytes), content_type, blob|
            { path:, blob:, blob_id: blob.id, content_type:, byte_size: bytes.bytesize,
              digest: FileStores::Native.sha256_hex(bytes), text: batch_text(content_type, bytes) }
          end
        end

        # Insert_all writes the column as it is: an app that encrypts the
        # text gets none in a batch (read and search download the file).
        def batch_text(content_type, bytes)
          model = RubyLLM::ActiveRecord::ChatFile
          return nil if model.respond_to?(:encrypted_attributes) && model.encrypted_attributes.present?

          Blobs.row_text(content_type, bytes)
        end

        # Inside the lock: checks, inserts and updates; returns [saved
        # StoredFiles, {path => why} refused].
        def save_batch(files)
          accepted, refused = BatchChecks.new(@rows, files).check
          now = Time.current
          old_blobs = BatchRows.new(@rows).save(accepted, now)
          purge = -> { RubyLLM::ActiveRecord::ChatFile.purge_unattached(old_blobs) } unless old_blobs.empty?
          discard = -> { accepted.each { |file| @blobs.discard(file[:blob]) } }
          TransactionHook.add(RubyLLM::ActiveRecord::ChatFile.connection, on_commit: purge, on_rollback: discard)
          files.each { |file| @blobs.discard(file[:blob]) if refused.key?(file[:path]) }
          [accepted.map { |file| BatchRows.stored(file, now) }, refused]
        end

        # A batch the database refused: each file on its own, none started
        # after +deadline+.
        def one_by_one(entries, deadline)
          saved = []
          unsaved = []
          error = nil
          entries.each do |path, bytes|
            if Blobs.out_of_time?(deadline)
              unsaved << path
              error ||= FileStores::Native::ManyWrites::OUT_OF_TIME
              next
            end
            saved << @store.write(path, bytes)
          rescue StandardError => e
            unsaved << path
            error ||= unsaved_reason(e)
          end
          [saved, unsaved, error]
        end

        # Why a file was not saved: the service's trouble as the tools say
        # it, else the error's message.
        def unsaved_reason(error)
          Tools::ServiceError.match?(error) ? Tools::DatabaseError.message_for(error) : error.message
        end
      end
    end
  end
end
