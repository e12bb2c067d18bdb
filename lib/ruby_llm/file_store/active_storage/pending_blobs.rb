# frozen_string_literal: true

module RubyLLM
  class FileStore
    class ActiveStorage < FileStore
      # The rows of blobs about to be uploaded, committed before their files
      # are: a process killed during an upload, or between the upload and
      # the commit of the file's row, leaves a blob row (marked as this
      # store's, attached to nothing) that purge_orphans finds, with its
      # file, instead of a file in the bucket that no row names.
      #
      # Outside a transaction the rows commit at once. Inside the store's
      # own lock (with_lock's transaction, the outermost one: the tools write
      # there), they commit on a second connection from the pool, in a
      # thread of their own, which the chat's lock does not hold up. Not on
      # SQLite, whose one writer is the lock's own transaction, and not
      # inside a transaction of the application's: there they are saved in
      # that transaction, and a process killed before it commits can leave a
      # file no row names (as a transaction rolled back deletes it, a kill
      # cannot). Used by Blobs.
      class PendingBlobs # :nodoc:
        # +lock+ is the store's ChatLock: whether it holds the outermost
        # transaction decides where the rows commit.
        def initialize(lock)
          @lock = lock
        end

        # Saves +blobs+ (new ActiveStorage::Blob records, unfurled) in one
        # statement and returns them as saved records, in order.
        def save(blobs)
          return [] if blobs.empty?

          columns = blobs.map { |blob| pending_columns(blob, Time.current) }
          insert = lambda do
            ::ActiveStorage::Blob.insert_all!(columns)
            ::ActiveStorage::Blob.where(key: blobs.map(&:key)).index_by(&:key)
          end
          saved = aside? ? aside(&insert) : waiting(&insert)
          blobs.map { |blob| saved.fetch(blob.key) }
        end

        # Deletes the rows of the blobs of +ids+ that nothing is attached
        # to, where save saved them: on a connection of its own when
        # they were committed there, since this transaction may yet roll back
        # (a tool's write that failed raises through the lock's transaction).
        def delete_unattached(ids)
          delete = lambda do
            ::ActiveStorage::Blob.where(id: ids).where.not(id: ::ActiveStorage::Attachment.select(:blob_id)).delete_all
          end
          aside? ? aside(&delete) : waiting(&delete)
        end

        private

        # Whether the rows must commit on a connection of their own: the
        # store's lock is the outermost transaction on the blobs' database.
        def aside? = @lock.outermost_on?(::ActiveStorage::Blob.connection)

        # Runs +block+ here, through SQLite's busy wait (see ChatLock).
        def waiting(&)
          ChatLock::SqliteWait.around(::ActiveStorage::Blob.connection, &)
        end

        # Runs +block+ on another connection of the pool, in a thread of its
        # own; in this transaction when the pool has none to spare.
        def aside(&block)
          Thread.new do
            Thread.current.report_on_exception = false # raised again here, by value
            ::ActiveStorage::Blob.connection_pool.with_connection { block.call }
          end.value
        rescue ::ActiveRecord::ConnectionTimeoutError
          block.call
        end

        # The metadata goes in as a Hash, which the column's coder turns into
        # JSON (a JSON String it would store as {}, losing the mark).
        def pending_columns(blob, now)
          columns = { key: blob.key, filename: blob.filename.to_s, content_type: blob.content_type,
                      metadata: blob.metadata.to_h, byte_size: blob.byte_size, checksum: blob.checksum,
                      created_at: now }
          return columns unless ::ActiveStorage::Blob.column_names.include?('service_name')

          columns.merge(service_name: blob.service_name || ::ActiveStorage::Blob.service.name)
        end
      end
    end
  end
end
