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
        # store's write, so the chat's after_file_write callbacks (the file
        # glue's file_store_written) hear of them here. A staged run saves
        # through the store's write, which the glue already follows.
        def code_execution_wrote(file)
          file_store_written(file) if respond_to?(:file_store_written, true)
        end
      end

      # When ruby_llm is loaded after this gem, the file glue's
      # Native.install! puts it in; this puts with_code_execution in with it.
      module InstallWithGlue
        def install!
          installed = super
          ChatExtension.install
          installed
        end
      end

      ChatExtension.install
      if defined?(RubyLLM::FileStores::Native) && RubyLLM::FileStores::Native.respond_to?(:install!) &&
         !RubyLLM::FileStores::Native.singleton_class.include?(InstallWithGlue)
        RubyLLM::FileStores::Native.singleton_class.prepend(InstallWithGlue)
      end
    end
  end
end
