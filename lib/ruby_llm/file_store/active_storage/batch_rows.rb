# frozen_string_literal: true

module RubyLLM
  class FileStore
    class ActiveStorage < FileStore
      # What a batch of write_many writes, in a few statements for the whole
      # batch (its blobs' rows are saved before, see PendingBlobs): the new
      # rows and their attachments with insert_all!, the replaced rows and their attachments with
      # upsert_all on their ids (every NOT NULL column given, only the
      # file's own columns changed: read_digest and attachment_key keep
      # their values).
      class BatchRows # :nodoc:
        def initialize(rows)
          @rows = rows
        end

        # Saves the accepted files' blobs and rows; returns the ids of the
        # blobs the replaced rows no longer use.
        def save(files, now)
          existing = own_row_facts(files.map { |file| file[:path] })
          fresh, replaced = files.partition { |file| existing[file[:path]].nil? }
          insert_rows(fresh, now)
          replace_rows(replaced, existing, now)
        end

        # The StoredFile of a +file+ saved at +now+.
        def self.stored(file, now)
          RubyLLM::StoredFile.new(path: file[:path], byte_size: file[:byte_size], content_type: file[:content_type],
                                  digest: file[:digest], updated_at: now)
        end

        private

        # {path => { row:, created_at:, attachment:, blob: }} of this store's
        # rows at +paths+ (attachment and blob nil when it has none).
        def own_row_facts(paths)
          return {} if paths.empty?

          rows = @rows.at_paths(@rows.own, paths).pluck(:id, :path, :created_at)
          attachments = ::ActiveStorage::Attachment.where(record_type: chat_file_type, name: 'file',
                                                          record_id: rows.map(&:first))
                                                   .pluck(:record_id, :id, :blob_id)
                                                   .to_h { |record_id, *ids| [record_id, ids] }
          rows.to_h do |id, path, created_at|
            attachment, blob = attachments[id]
            [path, { row: id, created_at:, attachment:, blob: }]
          end
        end

        def chat_file_type = RubyLLM::ActiveRecord::ChatFile.polymorphic_name

        def insert_rows(files, now)
          return if files.empty?

          RubyLLM::ActiveRecord::ChatFile.insert_all!(files.map { |file| row_columns(file, now, now) })
          ids = @rows.at_paths(@rows.own, files.map { |file| file[:path] }).pluck(:path, :id).to_h
          attach_all(files.map { |file| [ids.fetch(file[:path]), file[:blob_id]] }, now)
        end

        # Every column a row needs (NOT NULL ones too, for the upsert).
        def row_columns(file, created_at, now)
          model = RubyLLM::ActiveRecord::ChatFile
          chat = @rows.chat
          owner = @rows.owner
          columns = { chat_type: chat.class.polymorphic_name, chat_id: chat.id,
                      owner_type: owner&.class&.polymorphic_name, owner_id: owner&.id, path: file[:path],
                      content_type: file[:content_type], byte_size: file[:byte_size], digest: file[:digest],
                      text: file[:text], created_at:, updated_at: now }
          model.path_digests? ? columns.merge(path_digest: model.path_digest(file[:path])) : columns
        end

        def attach_all(pairs, now)
          return if pairs.empty?

          ::ActiveStorage::Attachment.insert_all!(pairs.map do |record_id, blob_id|
            { name: 'file', record_type: chat_file_type, record_id:, blob_id:, created_at: now }
          end)
        end

        # Updates the rows at the files' paths and points their attachments
        # at the new blobs; returns the blob ids they no longer use.
        def replace_rows(files, existing, now)
          return [] if files.empty?

          facts = files.map { |file| existing.fetch(file[:path]) }
          RubyLLM::ActiveRecord::ChatFile.upsert_all(
            files.zip(facts).map { |file, row| row_columns(file, row[:created_at], now).merge(id: row[:row]) },
            unique_by: :id
          )
          attached, missing = files.zip(facts).partition { |_file, row| row[:attachment] }
          attach_all(missing.map { |file, row| [row[:row], file[:blob_id]] }, now)
          reattach(attached, now)
          attached.map { |_file, row| row[:blob] }
        end

        def reattach(pairs, now)
          return if pairs.empty?

          ::ActiveStorage::Attachment.upsert_all(pairs.map do |file, row|
            { id: row[:attachment], name: 'file', record_type: chat_file_type, record_id: row[:row],
              blob_id: file[:blob_id], created_at: now }
          end, unique_by: :id)
        end
      end
    end
  end
end
