# frozen_string_literal: true

module RubyLLM
  class FileStore
    class CodeExecution # :nodoc:
      # chat.with_code_execution(**options): gives the chat's model the
      # run_code tool over the chat's file store (see CodeExecution.new for
      # the options). Included into RubyLLM::Chat by
      # RubyLLM::FileStores::Native.install!, once ruby_llm is loaded.
      #
      #   chat = RubyLLM.chat.with_file_store('tmp/work').with_code_execution(python: %w[pandas matplotlib])
      module ChatExtension # :nodoc:
        # Includes the extension into RubyLLM::Chat if it is defined; safe to
        # call again.
        def self.install
          return false unless defined?(RubyLLM::Chat) && RubyLLM::Chat.is_a?(Class)
          return true if RubyLLM::Chat.include?(self)

          RubyLLM::Chat.include(self)
          true
        end

        # Gives the chat's model the run_code tool over the chat's file store; +options+ are
        # CodeExecution.new's. Returns the chat.
        def with_code_execution(**options)
          if RubyLLM.const_defined?(:Chat) && is_a?(RubyLLM::Chat)
            RubyLLM::FileStore::Integration::Adapters.current!('with_code_execution')
          end
          store = respond_to?(:file_store) ? file_store : nil
          unless store
            raise ConfigurationError, 'with_code_execution needs a file store for the code to work on: call ' \
                                      'with_file_store first'
          end

          runner = CodeExecution.new(store, **options)
          drop_code_execution_tool
          @code_execution_options = options
          @code_execution = runner
          runner.after_in_place_write { |file| code_execution_wrote(file) }
          with_tools(@code_execution_tool = runner.tool)
        end

        # The runner behind run_code, or nil.
        attr_reader :code_execution

        private

        # run_code works on the chat's files, so it follows the chat's store
        # (called by Integration::ChatExtension#with_file_store): a new store gets a
        # runner over it with the same options, and removing the store
        # removes run_code.
        def code_execution_follow_store
          return unless @code_execution
          return if @code_execution.store.equal?(file_store)

          if file_store
            with_code_execution(**@code_execution_options)
          else
            drop_code_execution_tool
            @code_execution = nil
          end
        end

        def drop_code_execution_tool
          tool = @code_execution_tool
          tools.delete_if { |_, own| own.equal?(tool) } if tool
          @code_execution_tool = nil
        end

        # Files a run changed in a folder store never pass through the
        # store's write, so the chat's after_file_write callbacks (the file
        # integration's file_store_written) hear of them here. A staged run saves
        # through the store's write, which the integration already follows.
        def code_execution_wrote(file)
          file_store_written(file) if respond_to?(:file_store_written, true)
        end
      end
    end
  end
end
