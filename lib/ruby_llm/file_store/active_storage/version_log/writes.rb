# frozen_string_literal: true

module RubyLLM
  class FileStore
    class ActiveStorage < FileStore
      class VersionLog # :nodoc:
        # How VersionLog writes rows: a change's versions inserted in one
        # statement, and those past keep: and keep_for: forgotten with one
        # query for all its files, so a staged run's copy-back of many files
        # costs a few statements, not a few per file. Included by VersionLog.
        module Writes
          private

          # Inserts the rows of +versions+ in one statement and returns their
          # Records, in order. Under the chat's lock, so the chat's newest rows
          # are these where the database cannot return their ids.
          def insert_all(versions)
            rows = versions.map { |record| insert_columns(record) }
            ids = if model.connection.supports_insert_returning?
                    model.insert_all!(rows, returning: %w[id]).rows.map(&:first)
                  else
                    model.insert_all!(rows)
                    chat_rows.order(id: :desc).limit(rows.size).pluck(:id).reverse
                  end
            versions.zip(ids).map { |record, id| record.tap { record.id = id } }
          end

          # The columns of an inserted row: columns without the association.
          def insert_columns(record)
            columns(record).except(:chat).merge(chat_type: @chat.class.polymorphic_name, chat_id: @chat.id,
                                                forgotten: false)
          end

          # Marks the versions of +keys+ past the limits forgotten (never a
          # file's newest), lets their blobs go after the commit, and keeps
          # only each file's oldest forgotten row: it says what is no longer
          # known. One query finds them for all the keys.
          def forget_past_limits(keys)
            past, dropped = past_and_dropped(keys)
            return if past.empty?

            model.where(id: past.map { |row| row[1] }).update_all(forgotten: true, blob_id: nil)
            model.where(id: dropped.map { |row| row[1] }).delete_all unless dropped.empty?
            blob_ids = past.filter_map { |row| row[4] }.uniq
            purge = -> { RubyLLM::ActiveRecord::ChatFile.purge_unattached(blob_ids) }
            TransactionHook.add(model.connection, on_commit: purge, on_rollback: nil)
          end

          # The rows of +keys+ past the limits, and the forgotten rows to
          # delete (all but each file's oldest, with those past the limits).
          def past_and_dropped(keys)
            past = []
            dropped = []
            keys.group_by(&:first).each do |owner, same|
              versions_of(owner, same.map(&:last)).each_value do |list|
                gone = past_limits(list)
                past.concat(gone)
                dropped.concat((list.select { |row| row[3] } + gone).sort_by { |row| row[1] }.drop(1))
              end
            end
            [past, dropped]
          end

          # path => the rows ([path, id, created_at, forgotten, blob_id]) of
          # +owner+'s +paths+, newest first.
          def versions_of(owner, paths)
            owner_rows(owner).where(path_digest: paths.map { |path| model.path_digest(path) }).order(id: :desc)
                             .pluck(:path, :id, :created_at, :forgotten, :blob_id).group_by(&:first)
          end

          # The rows of +list+ (one file's, newest first) past keep: and
          # keep_for:, never the newest.
          def past_limits(list)
            horizon = keep_for && (Time.now - keep_for)
            list.reject { |row| row[3] }.each_with_index.filter_map do |row, index|
              row if index.positive? && (index >= keep || (horizon && row[2] < horizon))
            end
          end
        end
      end
    end
  end
end
