# frozen_string_literal: true

require 'json'

module RubyLLM
  class FileStore
    class ActiveStorage < FileStore
      # A chat's keep: and keep_for:, one setting kept with its history: a
      # row of kind limits in ruby_llm_chat_file_versions (as JSON in
      # made_by, at a path no file can have). A store made with history:
      # { keep:, keep_for: } keeps the bounds it was given with the chat when
      # it first records; one made with history: true (a chat found again,
      # another worker, an agent's file_store history: true) applies the
      # ones kept with the chat, read once, else the defaults. So a reload
      # goes on forgetting what the chat's bounds say.
      class VersionLimits # :nodoc:
        KIND = 'limits'
        PATH = '/history/limits'

        # +limits+: { keep:, keep_for: }; +given+: whether they were given.
        def initialize(chat, limits, given:)
          @chat = chat
          @limits = limits
          @given = given
        end

        # Versions kept per file.
        def keep = limits.fetch(:keep)

        # Seconds a version is kept, or nil.
        def keep_for = limits[:keep_for]

        # Keeps the given bounds with the chat, once (again if the
        # transaction that kept them rolls back). Runs under the chat's lock,
        # in the transaction of a change.
        def keep!
          return if !@given || @kept

          @kept = true
          made_by = JSON.generate(@limits)
          row = newest_row
          return if row&.made_by == made_by

          row ? row.update_columns(made_by:) : create(made_by)
          TransactionHook.add(model.connection, on_rollback: -> { @kept = false })
        end

        private

        def model = RubyLLM::ActiveRecord::ChatFileVersion

        def limits
          @limits = stored || @limits unless @given || @read
          @read = true
          @limits
        end

        # The bounds kept with the chat, or nil.
        def stored
          made_by = newest_row&.made_by or return nil
          stored = JSON.parse(made_by, symbolize_names: true)
          { keep: Integer(stored.fetch(:keep)), keep_for: stored[:keep_for]&.to_f }
        rescue JSON::ParserError, KeyError, TypeError, ArgumentError
          nil
        end

        def newest_row
          model.where(chat_type: @chat.class.polymorphic_name, chat_id: @chat.id, kind: KIND).order(:id).last
        end

        def create(made_by)
          model.create!(chat: @chat, path: PATH, path_digest: model.path_digest(PATH), kind: KIND, made_by:,
                        created_at: Time.now)
        end
      end
    end
  end
end
