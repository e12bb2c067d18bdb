# frozen_string_literal: true

module RubyLLM
  class FileStore
    class ActiveStorage < FileStore
      # The cleanup call for blobs the store uploaded and nothing uses: a
      # purge after a commit that failed (on SQLite with two processes
      # writing, "database is locked" after the store's retries) or a
      # process killed in a write (its blob's row commits before the upload,
      # see PendingBlobs) leaves them, with their files. Run it now and then
      # (a nightly job, on one machine):
      #
      #   RubyLLM::FileStore::ActiveStorage.purge_orphans                  # older than an hour
      #   bin/rails ruby_llm:file_store:purge_orphans OLDER_THAN=86400      # the same as a task
      #
      # Only blobs this store uploaded (marked in their metadata, see
      # Blobs::MARK), on the service it uploads to, attached to nothing, and
      # older than +older_than+ seconds: a write makes its blob's row before
      # it uploads the file, so a younger one may be a write under way.
      # Each is checked again as it is deleted, so a blob attached meanwhile
      # stays.
      module Orphans # :nodoc:
        GRACE = 3600
        BATCH = 500

        module_function

        # Purges the orphans; returns how many.
        def purge(older_than)
          unless older_than.is_a?(Numeric) && older_than >= 0
            raise ArgumentError, "older_than must be a number of seconds, not #{older_than.inspect}"
          end

          Loading.load!
          orphans(Time.current - older_than).in_batches(of: BATCH).sum do |batch|
            RubyLLM::ActiveRecord::ChatFile.purge_unattached(batch.pluck(:id))
          end
        end

        def orphans(cutoff)
          blobs = ::ActiveStorage::Blob
          found = blobs.where(blobs.arel_table[:created_at].lt(cutoff))
                       .where('metadata LIKE ?', "%\"#{Blobs::MARK}\":true%")
                       .where.not(id: ::ActiveStorage::Attachment.select(:blob_id))
          found = RubyLLM::ActiveRecord::ChatFileVersion.unheld(found) # a kept version holds its blob
          return found unless blobs.column_names.include?('service_name')

          found.where(service_name: blobs.service.name)
        end
      end
    end
  end
end
