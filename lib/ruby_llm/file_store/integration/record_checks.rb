# frozen_string_literal: true

module RubyLLM
  class FileStore
    module Integration
      # What with_file_store checks for acts_as_chat records, so that a
      # mistake in the app shows where it is made, saying what to do, not
      # at the first ask with an attachment.
      module RecordChecks # :nodoc:
        module_function

        # Raises ArgumentError for an unsaved +record+: its files belong to
        # a saved chat, and ruby_llm builds an unsaved record's chat
        # differently on each line (1.16: NoMethodError for model_id).
        def saved!(record)
          return if record.persisted?

          raise ArgumentError, "with_file_store needs a saved chat: save it first (#{record.class.name}." \
                               'create!(...) or chat.save!), so its files have a chat to belong to.'
        end

        # Raises RubyLLM::ConfigurationError, saying how to make it, when
        # +store+ is an Active Storage store and the table of the chats'
        # files is missing (else ActiveRecord::StatementInvalid at the
        # first ask with an attachment). The agent's file_store comes here
        # too, through the record's default_file_store.
        def table!(store)
          return if RubyLLM::FileStore.autoload?(:ActiveStorage) # not loaded: store is none
          return unless store.is_a?(RubyLLM::FileStore::ActiveStorage)

          model = RubyLLM::ActiveRecord::ChatFile
          return if model.table_exists?

          raise RubyLLM::ConfigurationError,
                "The table of the chats' files, #{model.table_name}, is missing: run " \
                'bin/rails g ruby_llm:file_store:install, then bin/rails db:migrate.'
        end
      end
    end
  end
end
