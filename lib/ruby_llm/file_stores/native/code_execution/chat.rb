# frozen_string_literal: true

module RubyLLM
  class FileStore
    class CodeExecution # :nodoc:
      # chat.with_code_execution(**options): gives the chat's model the
      # run_code tool over the chat's file store (see CodeExecution.new for
      # the options). Included into RubyLLM::Chat when ruby_llm is loaded,
      # once, whichever of the two is required first.
      #
      #   chat = RubyLLM.chat.with_file_store('tmp/work').with_code_execution(python: %w[pandas matplotlib])
      module ChatExtension
        # Includes the extension into RubyLLM::Chat if it is defined; safe to
        # call again.
        def self.install
          return false unless defined?(RubyLLM::Chat) && RubyLLM::Chat.is_a?(Class)
          return true if RubyLLM::Chat.include?(self)

          RubyLLM::Chat.include(self)
          true
        end

        def with_code_execution(**options)
          store = respond_to?(:file_store) ? file_store : nil
          unless store
            raise ConfigurationError, 'with_code_execution needs a file store for the code to work on: call ' \
                                      'with_file_store first'
          end

          @code_execution = CodeExecution.new(store, **options)
          @code_execution.after_file_write { |file| code_execution_wrote(file) } if @code_execution.in_place?
          with_tools(@code_execution.tool)
        end

        # The runner behind run_code, or nil.
        attr_reader :code_execution

        private

        # Files a run changed in a folder store never pass through the
        # store's write, so the chat's after_file_write callbacks hear of
        # them here. (A staged run saves through write, which the chat's
        # file glue already follows.)
        def code_execution_wrote(file)
          run_callbacks(:after_file_write, file) if respond_to?(:run_callbacks, true)
        end
      end

      ChatExtension.install
    end
  end
end
