# frozen_string_literal: true

module RubyLLM
  module FileStores
    module Native
      # Raised by Native.install! when the loaded ruby_llm lacks a method the
      # chat integration hooks into, instead of silently not saving long
      # results or not replacing attachments with lines.
      class IncompatibleRubyLLMError < StandardError; end

      module Glue
        # The ruby_llm methods the integration hooks into, checked when it is
        # installed. Several are private to ruby_llm, so a ruby_llm that
        # renamed one must fail loudly here.
        module Hooks
          NEEDED = 'ruby_llm 2.0 (with_tools, before_tool_call/after_tool_result, Agent inputs; its main branch ' \
                   'until 2.0 is released)'

          # Chat methods => what breaks without them.
          CHAT_PRIVATE = {
            preprocessed_messages: 'replacing earlier attachments with lines',
            provider_completion: 'counting attached text files as read',
            add_tool_result_message: 'saving long tool results',
            execute_tool: 'after_file_write for what tools write'
          }.freeze
          CHAT_PUBLIC = %i[add_message with_tools tools messages].freeze

          # acts_as_chat records' methods (RubyLLM::ActiveRecord::ChatMethods)
          # => what breaks without them.
          RECORD_PRIVATE = {
            build_llm_chat: 'giving a chat loaded again its Active Storage store',
            persist_content: "sharing a message's Active Storage blob with the chat's file"
          }.freeze
          RECORD_PUBLIC = %i[to_llm add_message].freeze

          module_function

          # Raises IncompatibleRubyLLMError naming each missing hook point.
          def check!
            missing = chat_missing + agent_missing + message_missing
            return true if missing.empty?

            raise IncompatibleRubyLLMError,
                  "ruby_llm-file_stores-native needs #{NEEDED}; the loaded ruby_llm " \
                  "#{defined?(RubyLLM::VERSION) ? RubyLLM::VERSION : '(unknown version)'} lacks " \
                  "#{missing.join('; ')}. Update ruby_llm, or use the stores and RubyLLM::FileStore::Tools.for " \
                  'without the chat integration.'
          end

          # Raises IncompatibleRubyLLMError naming each missing hook point of
          # ruby_llm's Rails integration (acts_as_chat and its records).
          def check_records!
            missing = record_missing
            return true if missing.empty?

            raise IncompatibleRubyLLMError,
                  "ruby_llm-file_stores-native needs #{NEEDED} for acts_as_chat records; the loaded ruby_llm " \
                  "#{defined?(RubyLLM::VERSION) ? RubyLLM::VERSION : '(unknown version)'} lacks " \
                  "#{missing.join('; ')}. Update ruby_llm, or give each chat its store with " \
                  'to_llm.with_file_store(RubyLLM::FileStore::ActiveStorage.new(chat)).'
          end

          def record_missing
            acts_as = RubyLLM::ActiveRecord::ActsAs
            unless acts_as.const_defined?(:ClassMethods, false) &&
                   acts_as::ClassMethods.public_method_defined?(:acts_as_chat)
              return ['RubyLLM::ActiveRecord::ActsAs::ClassMethods#acts_as_chat']
            end

            methods = RubyLLM::ActiveRecord::ChatMethods
            missing = RECORD_PRIVATE.filter_map do |name, use|
              "RubyLLM::ActiveRecord::ChatMethods##{name} (for #{use})" unless methods.private_method_defined?(name)
            end
            if methods.private_method_defined?(:persist_content) && methods.instance_method(:persist_content).arity != 2
              missing << 'RubyLLM::ActiveRecord::ChatMethods#persist_content(message_record, attachments)'
            end
            missing + RECORD_PUBLIC.reject { |name| methods.public_method_defined?(name) }
                                   .map { |name| "RubyLLM::ActiveRecord::ChatMethods##{name}" }
          end

          def chat_missing
            chat = RubyLLM::Chat
            missing = CHAT_PRIVATE.filter_map do |name, use|
              "RubyLLM::Chat##{name} (for #{use})" unless chat.private_method_defined?(name)
            end
            missing += CHAT_PUBLIC.reject { |name| chat.public_method_defined?(name) }
                                  .map { |name| "RubyLLM::Chat##{name}" }
            if chat.private_method_defined?(:preprocessed_messages) &&
               chat.instance_method(:preprocessed_messages).parameters.none? { |kind, _| kind == :opt }
              missing << 'RubyLLM::Chat#preprocessed_messages(list = messages)'
            end
            missing
          end

          def agent_missing
            agent = RubyLLM::Agent.singleton_class
            missing = []
            missing << 'RubyLLM::Agent.apply_configuration' unless agent.public_method_defined?(:apply_configuration)
            missing << 'RubyLLM::Agent.runtime_context (private)' unless agent.private_method_defined?(:runtime_context)
            missing
          end

          # Messages sent to the provider are copies with other content and
          # attachments: with_attachments, and content kept in @content.
          def message_missing
            return ['RubyLLM::Message#with_attachments'] unless RubyLLM::Message.method_defined?(:with_attachments)

            probe = RubyLLM::Message.new(role: :user, content: 'probe')
            probe.instance_variable_get(:@content) == 'probe' ? [] : ['RubyLLM::Message content in @content']
          end
        end
      end
    end
  end
end
