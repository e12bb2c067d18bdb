# frozen_string_literal: true

require 'digest'

module RubyLLM
  module ActiveRecord
    # One file of a chat: a row in ruby_llm_chat_files (made by
    # `rails generate ruby_llm:file_store:install`) with its bytes in Active
    # Storage. The row's own +path+ column is the file's path (Active
    # Storage's filename turns "/" into "-"); +text+ keeps what a converter
    # made of it, +read_digest+ the digest of what the model last read,
    # +attachment_key+ the chat attachment it was kept for.
    #
    #   chat.ruby_llm_chat_files.with_attached_file # the rows, for your views
    #
    # Encrypt the text where your application encrypts what the model reads
    # (Rails 7+):
    #
    #   Rails.application.config.to_prepare do
    #     RubyLLM::ActiveRecord::ChatFile.encrypts :text
    #   end
    #
    # Blobs are purged here, after the commit, only when no other record is
    # attached to them: a chat's file and a message's attachment can share
    # one blob. No job is needed.
    class ChatFile < ::ActiveRecord::Base
      self.table_name = 'ruby_llm_chat_files'

      belongs_to :chat, polymorphic: true
      belongs_to :owner, polymorphic: true, optional: true
      has_one_attached :file, dependent: false

      validates :path, presence: true

      # The unique index holds path_digest (the path's SHA-256, hex), not the
      # path: a path may be 4,000 bytes, and PostgreSQL's btree row holds at
      # most 2,704 (a longer one raised PG::ProgramLimitExceeded).
      before_save :set_path_digest, if: -> { self.class.path_digests? && (path_digest.nil? || path_changed?) }

      before_destroy :remember_blob
      after_destroy_commit :purge_unshared_blob

      # Whether the table has the attachment_key column (made by the
      # install generator since this gem remembered attachments there; add
      # it to an older table with
      # `add_column :ruby_llm_chat_files, :attachment_key, :string, limit: 64`).
      def self.attachment_keys?
        column_names.include?('attachment_key')
      end

      # Whether the table has the path_digest column (made by the install
      # generator since paths longer than PostgreSQL's index row went into
      # the index; `bin/rails generate ruby_llm:file_store:upgrade` adds it
      # to an older table and moves the unique index onto it).
      def self.path_digests?
        column_names.include?('path_digest')
      end

      # The digest path_digest keeps for +path+.
      def self.path_digest(path)
        Digest::SHA256.hexdigest(path)
      end

      # The StoredFile this row describes.
      def stored_file
        RubyLLM::StoredFile.new(path:, byte_size:, content_type:, digest:, updated_at:)
      end

      # Purges +blob+ (an ActiveStorage::Blob) unless an attachment still
      # uses it, as in a message's attachment that shares it.
      def self.purge_unless_attached(blob)
        purge_unattached([blob.id]) if blob
      end

      # Tries of a purge that SQLite refuses with "database is locked".
      PURGE_TRIES = 5

      # Purges the blobs of +blob_ids+ that no attachment uses: their rows,
      # then their files (a blob attached meanwhile keeps both). A few
      # statements for any number of blobs, each its own write, which
      # SQLite's busy handler waits for; when another process still holds
      # the database ("database is locked", seen with two processes
      # writing), it is tried again, PURGE_TRIES times in all with growing
      # pauses, then logged: what is left is for
      # RubyLLM::FileStore::ActiveStorage.purge_orphans.
      # Returns how many were purged.
      def self.purge_unattached(blob_ids)
        ids = Array(blob_ids).compact.uniq
        return 0 if ids.empty?

        tries = 0
        begin
          tries += 1
          purge_now(ids)
        rescue ::ActiveRecord::ActiveRecordError => e
          raise unless tries < PURGE_TRIES && busy?(e)

          sleep(0.02 * (2**tries) * (1 + rand))
          retry
        end
      end

      # Whether +error+ is SQLite's "database is locked" (or busy).
      def self.busy?(error)
        [error, error.cause].compact.any? do |cause|
          cause.class.name.to_s.include?('BusyException') || cause.message.to_s.match?(/database is (locked|busy)/i)
        end
      end

      def self.purge_now(ids)
        unattached = ::ActiveStorage::Blob.where(id: ids).where.not(id: ::ActiveStorage::Attachment.select(:blob_id))
        blobs = ChatFileVersion.unheld(unattached).to_a # a kept version holds its blob
        return 0 if blobs.empty?

        # A blob with variants goes through Active Storage's own purge,
        # which removes the variants' records and files too.
        with_variants = variant_blob_ids(blobs.map(&:id))
        plain, varied = blobs.partition { |blob| !with_variants.include?(blob.id) }
        varied.each(&:purge)
        varied.size + delete_plain(plain)
      end

      def self.delete_plain(blobs)
        return 0 if blobs.empty?

        ids = blobs.map(&:id)
        attached = ::ActiveStorage::Attachment.select(:blob_id)
        ChatFileVersion.unheld(::ActiveStorage::Blob.where(id: ids).where.not(id: attached)).delete_all
        kept = ::ActiveStorage::Blob.where(id: ids).pluck(:id) # attached meanwhile
        gone = blobs.reject { |blob| kept.include?(blob.id) }
        gone.each { |blob| blob.service.delete(blob.key) }
        gone.size
      end

      def self.variant_blob_ids(ids)
        return [] unless defined?(::ActiveStorage::VariantRecord) && ::ActiveStorage::VariantRecord.table_exists?

        ::ActiveStorage::VariantRecord.where(blob_id: ids).distinct.pluck(:blob_id)
      end
      private_class_method :purge_now, :delete_plain, :variant_blob_ids

      private

      def set_path_digest
        self.path_digest = self.class.path_digest(path)
      end

      def remember_blob
        @blob_to_purge = file_attachment&.blob
      end

      def purge_unshared_blob
        self.class.purge_unless_attached(@blob_to_purge)
      end
    end
  end
end
