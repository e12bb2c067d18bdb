# frozen_string_literal: true

require 'delegate'

module RubyLLM
  class FileStore
    module Integration
      module Adapters
        # ruby_llm 1.16 (the release): Chat#provider_completion hands
        # @provider.complete the chat's messages, and has no
        # preprocessed_messages. For the request, this adapter puts a
        # provider in front of the chat's own (RequestProvider) that sends a
        # view of the messages (ChatFiles::RequestView) instead; chat.messages never
        # changes. Messages carry attachments in their content (a
        # RubyLLM::Content), and acts_as_chat records build their chat in
        # to_llm, adding every saved message again on each call.
        module RubyLLM116 # :nodoc:
          extend Line

          LINE = '1.16'
          # The ruby_llm versions this adapter was run against.
          CHECKED = ['1.16.0'].freeze

          NEEDS = [
            Need.private_method('RubyLLM::Chat', :provider_completion,
                                'sending the provider a view of the messages, through @provider.complete'),
            *Line::CHAT_HOOK_NEEDS,
            Need.constant_named('RubyLLM::Content', 'reading and building attachments'),
            AttachmentContent::NEED,
            Need.public_method('RubyLLM::Message', :content=, 'sending messages with other attachments'),
            *Line::AGENT_HOOK_NEEDS
          ].freeze

          RECORD_NEEDS = [
            *Line::RECORD_HOOK_NEEDS,
            Need.public_method('RubyLLM::ActiveRecord::ChatMethods', :to_llm,
                               'giving a chat loaded again its Active Storage store')
          ].freeze

          # The chat's provider for one request: complete gets the view of
          # the messages; everything else goes to the provider as it is.
          class RequestProvider < SimpleDelegator # :nodoc:
            def initialize(provider, files)
              super(provider)
              @files = files
            end

            def complete(messages, **options, &)
              __getobj__.complete(@files.view(messages), **options, &)
            end
          end

          # Prepended to RubyLLM::Chat.
          module Chat # :nodoc:
            include ChatHooks

            private

            def provider_completion(&)
              files = @file_store_files
              return super unless files

              provider = @provider
              begin
                @provider = RequestProvider.new(provider, files)
                result = super
              ensure
                @provider = provider
              end
              files.commit_reads!
              result
            end
          end

          # Prepended to RubyLLM::Agent's singleton class, where
          # apply_configuration is private.
          module Agent # :nodoc:
            include AgentHooks

            private :apply_configuration
          end

          # Included into acts_as_chat models, after RecordExtension.
          module Record # :nodoc:
            include RecordHooks

            def to_llm
              file_store_chat_built(super)
            end
          end

          module_function

          # The attachments of +message+: those of its RubyLLM::Content.
          def attachments(message)
            content = message.content
            content.is_a?(::RubyLLM::Content) ? content.attachments : []
          end

          # The text of +message+.
          def text(message)
            content = message.content
            content.is_a?(::RubyLLM::Content) ? content.text : content
          end

          # Whether the provider takes +attachment+ as it is.
          def supported?(attachment)
            !ChatExtension::UNSUPPORTED_TYPES.include?(attachment.type)
          end

          # A tool's result as 1.16 sends files: in a RubyLLM::Content (it
          # sends any other object as its to_s); a Hash or an Array as JSON. +result+ is a file
          # (read_file's), or text followed by files that could not be kept.
          def tool_content(result)
            return ::RubyLLM::Content.new(nil, [result]) if result.is_a?(::RubyLLM::Attachment)
            # 1.16 sends a Hash or an Array as its to_s ({:error=>"..."});
            # main sends it as JSON, as the model is told to expect.
            return result.to_json if result.is_a?(Hash) || (result.is_a?(Array) && result.none?(::RubyLLM::Attachment))
            return result unless result.is_a?(Array)

            texts, files = result.partition { |part| part.is_a?(String) }
            ::RubyLLM::Content.new(texts.empty? ? nil : texts.join("\n\n"), files)
          end

          # A tool's result as [text, files] when it holds files: a
          # RubyLLM::Content with files, or as ChatFiles reads plain results
          # (a file, an Array of Strings and files; main's words for a mix
          # it refuses); else nil.
          def tool_files(result)
            if result.is_a?(::RubyLLM::Content)
              return result.attachments.empty? ? nil : [result.text.to_s, result.attachments]
            end

            ChatFiles::PlainMessages.tool_files(result)
          end

          # A copy of +message+ with +text+ and +attachments+ (the same
          # Attachment objects): the chat's own messages never change.
          def rebuild(message, text, attachments)
            message.dup.tap do |copy|
              copy.content = attachments.empty? ? text : ::RubyLLM::Content.new(text, attachments)
            end
          end
        end
      end
    end
  end
end
