# frozen_string_literal: true

module RubyLLM
  class FileStore
    module Integration
      module Adapters
        # What every adapter answers: its line, its needs, whether the loaded
        # ruby_llm meets them, and what both lines do alike.
        module Line # :nodoc:
          # What ChatHooks, AgentHooks and RecordHooks rely on, in both lines.
          CHAT_HOOK_NEEDS = [
            Need.private_method('RubyLLM::Chat', :add_tool_result_message, 'saving long tool results', arity: 2),
            Need.private_method('RubyLLM::Chat', :execute_tool, 'after_file_write for what tools write', arity: 1),
            *%i[add_message with_tools tools messages].map do |name|
              Need.public_method('RubyLLM::Chat', name, 'with_file_store')
            end
          ].freeze
          AGENT_HOOK_NEEDS = [
            Need.class_method('RubyLLM::Agent', :apply_configuration, 'the agent file_store macro'),
            Need.class_method('RubyLLM::Agent', :runtime_context, 'lambdas in the agent file_store macro')
          ].freeze
          RECORD_HOOK_NEEDS = [
            Need.public_method('RubyLLM::ActiveRecord::ActsAs::ClassMethods', :acts_as_chat, 'acts_as_chat records'),
            Need.private_method('RubyLLM::ActiveRecord::ChatMethods', :persist_content,
                                "sharing a message's Active Storage blob with the chat's file", arity: 2)
          ].freeze

          def usable? = missing.empty?

          def missing = self::NEEDS.reject(&:met?).map(&:to_s)

          def records_usable? = self::RECORD_NEEDS.all?(&:met?)

          def line = self::LINE

          # +attachment+ as it is sent (ChatExtension.shown).
          def shown(attachment) = ChatExtension.shown(attachment)

          # How both lines hold a URL attachment's bytes (AttachmentContent).
          def loaded_content(attachment) = AttachmentContent.loaded_content(attachment)
          def preload(attachment, bytes) = AttachmentContent.preload(attachment, bytes)

          # Puts the adapter's Chat and Agent hooks into ruby_llm.
          def install!
            ::RubyLLM::Chat.prepend(self::Chat)
            ::RubyLLM::Agent.singleton_class.prepend(self::Agent)
          end
        end
      end
    end
  end
end
