# frozen_string_literal: true

module RubyLLM
  class FileStore
    module Integration
      module Adapters
        # The hooks into RubyLLM::Chat that ruby_llm 1.16 and 2.0 share:
        # each adapter's Chat module includes them. They act only on a chat
        # with a store (with_file_store; see ChatExtension).
        module ChatHooks # :nodoc:
          # Keeps a question's attachments as soon as it is added; with a
          # history, a checkpoint from before it (a persisted chat's record
          # takes its own: RecordHooks).
          def add_message(message_or_attributes)
            checkpoint = FileStores::Native::History::Stores.before_question(file_store) unless @file_store_record
            message = super
            if message.role == :user
              @file_store_files&.keep_message(message)
              FileStores::Native::History::Stores.asked(file_store, message, checkpoint)
            end
            message
          end

          private

          # Long results saved, files returned by tools kept and shown as lines.
          def add_tool_result_message(tool_call, result)
            files = @file_store_files
            return super unless files

            tool = tools[tool_call.name.to_sym]
            super(tool_call, files.tool_result(tool_call.name, tool, result, tool_call.arguments))
          end

          # What the tool wrote in the chat's store, for after_file_write.
          def execute_tool(tool_call)
            files = @file_store_files
            return super unless files

            result, written = FileStores::Native::WriteEvents.listen(files.store) { super(tool_call) }
            written.each { |file| file_store_written(file) }
            result
          end
        end
      end
    end
  end
end
