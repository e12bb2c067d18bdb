# frozen_string_literal: true

module RubyLLM
  class FileStore
    module Integration
      module Adapters
        # The hooks into acts_as_chat records (RubyLLM::ActiveRecord::ChatMethods)
        # that both lines share.
        module RecordHooks # :nodoc:
          # With a history, a question's checkpoint from before it, kept
          # for its message record (every process finds it). ruby_llm 1.16
          # saves a question before it builds the chat (ask on a record
          # found again): the checkpoint is then the store's the chat will
          # get (RecordExtension.store_when_built).
          def add_message(message_or_attributes)
            store = file_store_chat ? file_store_chat.file_store : RecordExtension.store_when_built(self)
            checkpoint = FileStores::Native::History::Stores.before_question(store)
            record = super
            if record.respond_to?(:role) && record.role.to_s == 'user'
              FileStores::Native::History::Stores.asked(store, record, checkpoint)
            end
            record
          end

          private

          # A question's attachments kept by the blobs ruby_llm just
          # attached to its message record.
          def persist_content(message_record, attachments)
            result = super
            RecordExtension.keep_attachments(file_store_chat, message_record, attachments) if file_store_chat
            result
          end
        end
      end
    end
  end
end
