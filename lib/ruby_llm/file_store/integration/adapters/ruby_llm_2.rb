# frozen_string_literal: true

module RubyLLM
  class FileStore
    module Integration
      module Adapters
        # ruby_llm 2.0 (its main branch until it is released): the provider
        # gets Chat#preprocessed_messages, which this adapter hands a view
        # of the messages (ChatFiles::RequestView) to; messages carry their
        # attachments (Message#attachments, #with_attachments).
        module RubyLLM2 # :nodoc:
          extend Line

          LINE = '2.0'
          # The ruby_llm versions this adapter was run against.
          CHECKED = ['main at fb5a49bf (its version.rb says 1.16.0)'].freeze

          NEEDS = [
            Need.new('RubyLLM::Chat#preprocessed_messages(list = messages)',
                     'replacing earlier attachments with lines') do
              chat = Need.constant('RubyLLM::Chat')
              chat&.private_method_defined?(:preprocessed_messages) &&
                chat.instance_method(:preprocessed_messages).parameters.any? { |kind, _| kind == :opt }
            end,
            Need.private_method('RubyLLM::Chat', :provider_completion, 'counting attached text files as read'),
            *Line::CHAT_HOOK_NEEDS,
            Need.public_method('RubyLLM::Message', :attachments, 'keeping attachments'),
            Need.public_method('RubyLLM::Message', :with_attachments, 'sending messages with other attachments'),
            Need.new('RubyLLM::Message keeping its text in @content', 'sending messages with other text') do
              message = Need.constant('RubyLLM::Message')
              message && message.new(role: :user, content: 'probe').instance_variable_get(:@content) == 'probe'
            end,
            Need.public_method('RubyLLM::Attachment', :provider_file?, 'sending provider uploads as they are'),
            AttachmentContent::NEED,
            Need.class_method('RubyLLM::Tool', :split_result, "reading tool results' files"),
            *Line::AGENT_HOOK_NEEDS
          ].freeze

          RECORD_NEEDS = [
            *Line::RECORD_HOOK_NEEDS,
            Need.public_method('RubyLLM::ActiveRecord::ChatMethods', :to_llm, 'with_file_store on records'),
            Need.private_method('RubyLLM::ActiveRecord::ChatMethods', :build_llm_chat,
                                'giving a chat loaded again its Active Storage store')
          ].freeze

          # Prepended to RubyLLM::Chat.
          module Chat # :nodoc:
            include ChatHooks

            private

            def preprocessed_messages(list = messages)
              files = @file_store_files
              return super unless files

              super(files.view(list))
            end

            def provider_completion(...)
              result = super
              @file_store_files&.commit_reads!
              result
            end
          end

          # Prepended to RubyLLM::Agent's singleton class.
          module Agent # :nodoc:
            include AgentHooks
          end

          # Included into acts_as_chat models, after RecordExtension.
          module Record # :nodoc:
            include RecordHooks

            private

            def build_llm_chat
              file_store_chat_built(super)
            end
          end

          module_function

          # The attachments of +message+.
          def attachments(message) = message.attachments || []

          # The text of +message+.
          def text(message) = message.content

          # Whether the provider takes +attachment+ as it is.
          def supported?(attachment)
            attachment.provider_file? || !ChatExtension::UNSUPPORTED_TYPES.include?(attachment.type)
          end

          # A tool's result as [text, files] when it holds files, as ruby_llm
          # splits it (its own ArgumentError for a mix it refuses), else nil.
          def tool_files(result)
            files = result.is_a?(::RubyLLM::Attachment) ||
                    (result.is_a?(Array) && result.flatten.any?(::RubyLLM::Attachment))
            files ? ::RubyLLM::Tool.split_result(result) : nil
          end

          # A copy of +message+ with +text+ and +attachments+: the chat's own
          # messages never change. ruby_llm 2.0's messages keep their text in
          # @content and have no writer for it.
          def rebuild(message, text, attachments)
            message.with_attachments(attachments).tap { |copy| copy.instance_variable_set(:@content, text) }
          end
        end
      end
    end
  end
end
