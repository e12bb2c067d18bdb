# frozen_string_literal: true

module RubyLLM
  class FileStore
    class ActiveStorage < FileStore
      # The history of a chat's files in Active Storage: a row per version in
      # ruby_llm_chat_file_versions, holding the blob the file had (no copy,
      # no service call). It answers what FileStores::Native::History::Log
      # answers, from the table, so every process and machine on the
      # database sees one history; it is written under the chat's lock, in
      # the transaction of the change, so a change and its version commit
      # together or not at all.
      class VersionLog # :nodoc:
        include Writes
        Record = FileStores::Native::History::Record
        # The kind of a row that keeps a question's checkpoint, not a version.
        CHECKPOINT = 'checkpoint'
        NOT_VERSIONS = [CHECKPOINT, VersionLimits::KIND].freeze
        private_constant :Record, :NOT_VERSIONS

        # keep: and keep_for: are the chat's (VersionLimits): +given+ says
        # they were given, else those kept with the chat apply.
        # +max_version_bytes+ is taken and not needed: a version holds its
        # file's blob, so every version is kept.
        def initialize(chat, keep:, keep_for:, max_version_bytes: nil, given: true) # rubocop:disable Lint/UnusedMethodArgument
          @chat = chat
          @limits = VersionLimits.new(chat, { keep:, keep_for: }, given:)
        end

        def keep = @limits.keep
        def keep_for = @limits.keep_for

        def last_id = chat_rows.maximum(:id) || 0

        def records(key) = rows(key).where(forgotten: false).order(:id).map { |row| record_of(row) }

        def newest(key)
          row = rows(key).where(forgotten: false).order(id: :desc).first
          row && record_of(row)
        end

        # The newest version of each of +keys+ in one query per owner.
        def newest_of(keys)
          return keys.to_h { |key| [key, newest(key)] } if keys.size < 2

          keys.group_by(&:first).each_with_object({}) do |(owner, same), found|
            digests = same.map { |key| model.path_digest(key.last) }
            kept = owner_rows(owner).where(forgotten: false, path_digest: digests)
            kept.where(id: kept.group(:path_digest).select(model.arel_table[:id].maximum)).each do |row|
              found[[owner, row.path]] = record_of(row)
            end
          end
        end

        def record(key, id)
          row = rows(key).find_by(id:, forgotten: false)
          row && record_of(row)
        end

        def keys_since(id, owner)
          owner_rows(owner).where(forgotten: false).where(model.arel_table[:id].gt(id)).distinct.pluck(:path)
                           .map { |path| [owner, path] }
        end

        def forgotten_by?(key, id)
          rows(key).where(forgotten: true).where(model.arel_table[:id].lteq(id)).exists?
        end

        # Inserts the versions (several in one statement), then forgets those
        # past keep: and keep_for: (their blobs purged after the commit,
        # unless a file or another version still holds them).
        def add(versions)
          return [] if versions.empty?

          @limits.keep!
          records = if versions.size == 1
                      [record_of(model.create!(columns(versions.first)))]
                    else
                      insert_all(versions)
                    end
          forget_past_limits(records.map(&:key).uniq)
          records
        end

        # Keeps a saved message's checkpoint in the table (a row of kind
        # checkpoint, its path the key), so every process finds it; a
        # message in memory's only here.
        def remember_question(key, id)
          return (@questions ||= {})[key] = id if key.start_with?('/question/object-')

          @limits.keep!
          model.create!(chat: @chat, path: key, path_digest: model.path_digest(key), kind: CHECKPOINT,
                        checkpoint_id: id, created_at: Time.now)
          id
        end

        def question(key)
          return (@questions ||= {})[key] if key.start_with?('/question/object-')

          chat_rows.where(kind: CHECKPOINT, path_digest: model.path_digest(key)).order(:id).last&.checkpoint_id
        end

        def kept?(record) = !record.blob_id.nil?

        # Never: a version holds its file's blob, whatever its size.
        def too_big?(_byte_size) = false

        # The blob of +record+: a write keeps it as it is.
        def content(record)
          ::ActiveStorage::Blob.find_by(id: record.blob_id) ||
            raise(RubyLLM::FileNotFoundError, "version #{record.id} of #{record.path} is no longer kept")
        end

        def bytes(record) = content(record).download.b

        # The table is the history: nothing to catch up on, and a change's
        # version commits with it.
        def sync = nil
        def begin_change(_owner, _paths); end
        def end_change; end

        def inspect = "#<#{self.class.name} #{@chat.class.name}##{@chat.id}>"

        private

        # The model, named when used: the store loads it (load_models!).
        def model = RubyLLM::ActiveRecord::ChatFileVersion

        def chat_rows = model.where(chat_type: @chat.class.polymorphic_name, chat_id: @chat.id)

        def owner_rows(owner)
          owner_type, owner_id = owner
          chat_rows.where(owner_type:, owner_id:).where.not(kind: NOT_VERSIONS)
        end

        def rows(key) = owner_rows(key.first).where(path_digest: model.path_digest(key.last))

        def record_of(row)
          Record.of(id: row.id, owner: row.owner_type && [row.owner_type, row.owner_id], path: row.path,
                    change: row.kind.to_sym, digest: row.digest, byte_size: row.byte_size,
                    content_type: row.content_type, at: row.created_at, by: decode_by(row.made_by),
                    baseline: row.baseline, blob_id: row.blob_id)
        end

        # The row's columns for a version (a Record without its id, see
        # History::Log#add).
        def columns(record)
          owner_type, owner_id = record.owner
          { chat: @chat, owner_type:, owner_id:, path: record.path, path_digest: model.path_digest(record.path),
            kind: record.change.to_s, digest: record.digest, byte_size: record.byte_size,
            content_type: record.content_type, made_by: encode_by(record.by),
            baseline: record.baseline ? true : false, blob_id: record.blob_id, created_at: Time.at(record.at) }
        end

        def encode_by(by) = by.is_a?(Symbol) ? ":#{by}" : by
        def decode_by(by) = by&.start_with?(':') ? by.delete_prefix(':').to_sym : by
      end
    end
  end
end
