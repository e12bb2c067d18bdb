# frozen_string_literal: true

require 'stringio'

module RubyLLM
  module FileStores
    module Native
      module Glue
        # What RubyLLM::Chat gets (prepended by Native.install!): with_file_store,
        # file_store, after_file_write, and hooks into the request (what the
        # model sees of attachments) and the tool loop (long results, files
        # tools return, tool writes). chat.messages never changes for
        # attachments; a tool result message keeps what the model saw.
        module ChatExtension
          # Attachment types providers generally cannot take (Office files and
          # the like): sent as converted text, or as a line.
          UNSUPPORTED_TYPES = %i[document unknown].freeze

          # Attaches a store to the chat, with its tools (see Setup for the
          # arguments); nil removes the store and its tools. The chat's own
          # tools keep working. Returns self.
          #
          #   chat.with_file_store
          #   chat.with_file_store('tmp/chats/42')
          #   chat.with_file_store(:memory, inline_limit: 20_000)
          #   chat.with_file_store(tools: :read, owner: Current.user)
          #   chat.with_file_store(nil)
          def with_file_store(store = Setup::DEFAULT, tools: FileStore::Tools::DEFAULT,
                              inline_limit: FileStore::Tools::DEFAULT_INLINE_LIMIT, owner: nil)
            if store.nil?
              drop_file_store_tools
              @file_store_files = nil
            else
              setup = Setup.build(store, default: -> { default_file_store }, tools:, inline_limit:, owner:)
              drop_file_store_tools
              @file_store_files = ChatFiles.new(setup, on_write: method(:file_store_written))
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

          # Keeps a question's attachments as soon as it is added.
          def add_message(message_or_attributes)
            message = super
            @file_store_files&.keep_message(message) if message.role == :user
            message
          end

          # Whether the provider takes +attachment+ as it is.
          def self.supported?(attachment)
            attachment.provider_file? || !UNSUPPORTED_TYPES.include?(attachment.type)
          end

          # +attachment+ as it is sent: a text attachment whose name holds
          # what would forge ruby_llm's <file name='...'> wrapper (a quote,
          # >, a line separator, a bidi control) as a copy named with its
          # kept name, escaped (Names).
          def self.shown(attachment)
            return attachment if attachment.respond_to?(:provider_file?) && attachment.provider_file?
            return attachment unless attachment.type == :text

            name = Names.attribute(Names.kept(attachment.filename))
            return attachment if name == attachment.filename

            RubyLLM::Attachment.new(StringIO.new(attachment.content), filename: name)
          end

          # A copy of +message+ with other content and attachments.
          def self.rebuild(message, content, attachments)
            message.with_attachments(attachments).tap { |copy| copy.instance_variable_set(:@content, content) }
          end

          private

          def file_store_written(file)
            (@file_store_write_callbacks || []).each { |callback| callback.call(file) }
          end

          def drop_file_store_tools
            ours = @file_store_files&.tools
            tools.delete_if { |_, tool| ours.any? { |own| own.equal?(tool) } } if ours
          end

          def preprocessed_messages(list = messages)
            files = @file_store_files
            return super unless files

            super(files.view(list, supported: ChatExtension.method(:supported?),
                                   rebuild: ChatExtension.method(:rebuild), show: ChatExtension.method(:shown)))
          end

          def provider_completion(...)
            result = super
            @file_store_files&.commit_reads!
            result
          end

          def add_tool_result_message(tool_call, result)
            files = @file_store_files
            return super unless files

            tool = tools[tool_call.name.to_sym]
            super(tool_call, files.tool_result(tool_call.name, tool, result, tool_call.arguments))
          end

          def execute_tool(tool_call)
            return super unless @file_store_files

            result, written = WriteTap.capture { super(tool_call) }
            written.each { |file| file_store_written(file) }
            result
          end
        end
      end
    end
  end
end
