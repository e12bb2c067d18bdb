# frozen_string_literal: true

module RubyLLM
  module FileStores
    module Native
      module Glue
        module Adapters
          # The hooks into acts_as_chat records (RubyLLM::ActiveRecord::ChatMethods)
          # that both lines share.
          module RecordHooks
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
end
