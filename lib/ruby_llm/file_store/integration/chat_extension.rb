# frozen_string_literal: true

require 'stringio'

module RubyLLM
  class FileStore
    module Integration
      # What RubyLLM::Chat gets (prepended by Native.install!, whatever the
      # ruby_llm version): with_file_store, file_store and after_file_write.
      # The hooks into the request (what the model sees of attachments) and
      # the tool loop (long results, files tools return, tool writes) come
      # from the adapter of the loaded ruby_llm (see Adapters); with none,
      # with_file_store raises IncompatibleRubyLLMError. chat.messages never
      # changes for attachments, nor for the files a tool returns; a long
      # tool result's message keeps the start the model saw.
      module ChatExtension # :nodoc:
        # Attachment types providers generally cannot take (Office files and
        # the like): sent as converted text, or as a line.
        UNSUPPORTED_TYPES = %i[document unknown].freeze

        # Attaches a store to the chat, with its tools (see ChatFiles::Setup for the
        # arguments); nil removes the store and its tools. The chat's own
        # tools keep working. Returns self.
        #
        #   chat.with_file_store
        #   chat.with_file_store('tmp/chats/42')
        #   chat.with_file_store(:memory, inline_limit: 20_000)
        #   chat.with_file_store(tools: :read, owner: Current.user)
        #   chat.with_file_store(chat_store, mounts: { 'handbook' => handbook })
        #   chat.with_file_store(history: true) # every version, a checkpoint per question
        #   chat.with_file_store(nil)
        def with_file_store(store = ChatFiles::Setup::DEFAULT, tools: FileStore::Tools::DEFAULT,
                            inline_limit: FileStore::Tools::DEFAULT_INLINE_LIMIT, owner: nil, mounts: nil,
                            history: nil)
          adapter = Adapters.current!
          if store.nil?
            drop_file_store_tools
            @file_store_files = nil
          else
            setup = ChatFiles::Setup.build(store, default: -> { default_file_store }, tools:, inline_limit:, owner:,
                                                  mounts:, history:)
            drop_file_store_tools
            @file_store_files = ChatFiles.new(setup, on_write: method(:file_store_written), shape: adapter)
            with_tools(*setup.tools)
          end
          # run_code (CodeExecution::ChatExtension) follows the new store.
          code_execution_follow_store if respond_to?(:code_execution_follow_store, true)
          self
        end

        # The chat's store, or nil.
        def file_store
          @file_store_files&.store
        end

        # The store a bare with_file_store gives: a new Memory store, or
        # for the chat of an acts_as_chat record, the record's
        # default_file_store (its Active Storage store; see
        # RecordExtension).
        def default_file_store
          record = @file_store_record
          record ? record.default_file_store : RubyLLM::FileStore::Memory.new
        end

        # The acts_as_chat record this chat persists to, set when the
        # record builds it (RecordExtension). :nodoc:
        attr_accessor :file_store_record

        # Keeps +attachment+ of a question in the chat's files as +blob+,
        # the Active Storage blob a persisted message holds it in, before
        # the question is added. Nothing without a store. :nodoc:
        def keep_file_store_attachment(attachment, blob)
          @file_store_files&.kept_file(attachment, blob:)
        end

        # Registers a block that receives each StoredFile the conversation
        # writes: attachments as they are kept, long tool results, and what
        # tools write. Returns self.
        def after_file_write(&block)
          raise ArgumentError, 'after_file_write needs a block' unless block

          (@file_store_write_callbacks ||= []) << block
          self
        end

        # +attachment+ as it is sent: a text attachment whose name holds
        # what would forge ruby_llm's <file name='...'> wrapper (a quote,
        # >, a line separator, a bidi control) as a copy named with its
        # kept name, escaped (ChatFiles::Names). The same on every ruby_llm line.
        def self.shown(attachment)
          return attachment if attachment.respond_to?(:provider_file?) && attachment.provider_file?
          return attachment unless attachment.type == :text

          name = ChatFiles::Names.attribute(ChatFiles::Names.kept(attachment.filename))
          return attachment if name == attachment.filename

          RubyLLM::Attachment.new(StringIO.new(attachment.content), filename: name)
        end

        private

        def file_store_written(file)
          (@file_store_write_callbacks || []).each { |callback| callback.call(file) }
        end

        def drop_file_store_tools
          ours = @file_store_files&.tools
          tools.delete_if { |_, tool| ours.any? { |own| own.equal?(tool) } } if ours
        end
      end
    end
  end
end
