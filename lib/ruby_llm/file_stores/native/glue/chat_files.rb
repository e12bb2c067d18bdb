# frozen_string_literal: true

module RubyLLM
  module FileStores
    module Native
      module Glue
        # A chat's files: its store and tools, the attachments it kept, the
        # long results it saved, and the reads that wait for a request to go
        # out. ChatExtension keeps one per chat; it is plain Ruby, so it works
        # (and is specced) without ruby_llm, on anything shaped like
        # attachments (filename, content, mime_type), reading messages
        # through a shape: the adapter of the loaded ruby_llm, or
        # PlainMessages (role, content, attachments).
        class ChatFiles
          NOT_KEPT = Object.new.freeze
          private_constant :NOT_KEPT

          attr_reader :setup

          # How a chat's messages look to ChatFiles, for plain objects with
          # role, content and attachments; an adapter answers the same for
          # ruby_llm's (see Adapters).
          module PlainMessages
            module_function

            def attachments(message) = message.attachments || []
            def text(message) = message.content
            def supported?(_attachment) = true
            def shown(attachment) = attachment
          end

          # +on_write+ is called with each StoredFile the conversation writes.
          # +shape+ reads messages: attachments, text, supported? and
          # rebuild (see Adapters::RubyLLM2).
          def initialize(setup, on_write: nil, shape: PlainMessages)
            @setup = setup
            @on_write = on_write
            @shape = shape
            @keeper = Keeper.new(setup.store)
            @long_results = LongResults.new(setup.store, limit: setup.inline_limit, keeper: @keeper)
            @kept = ObjectSpace::WeakMap.new # attachment => StoredFile, or NOT_KEPT
            @kept_lock = Mutex.new
            @pending_reads = []
          end

          def store = setup.store
          def tools = setup.tools
          def inline_limit = setup.inline_limit

          # The StoredFile +attachment+ is kept as, keeping it on first use
          # under its file name; nil for one that cannot be kept (a provider
          # upload, a file that does not fit, a name no store takes). Local converters run on it.
          # An attachment that is an Active Storage blob, or the +blob+ given
          # (a persisted message's copy of it), is kept as that blob by a
          # store with keep_blob, so the two share it.
          def kept_file(attachment, blob: nil)
            known = @kept_lock.synchronize { @kept[attachment] }
            return known.equal?(NOT_KEPT) ? nil : known if known

            file = keep(attachment, blob || AttachmentBlobs.of(attachment))
            @kept_lock.synchronize { @kept[attachment] = file || NOT_KEPT }
            file
          end

          # Keeps the attachments of +message+.
          def keep_message(message)
            @shape.attachments(message).each { |attachment| kept_file(attachment) }
          end

          # The messages to send for +messages+ (see RequestView). The text
          # files sent whole wait in commit_reads! until the request went out.
          # +supported+ tells whether the provider takes an attachment;
          # +rebuild+ makes a message with other content and attachments
          # (both the shape's by default); +show+ gives what to send for an
          # attachment sent as it is (the shape's shown).
          def view(messages, supported: @shape.method(:supported?), rebuild: @shape.method(:rebuild),
                   show: @shape.method(:shown))
            view = RequestView.new(kept: method(:kept_file), supported:, convert: method(:converted_text),
                                   rebuild:, inline_limit:, shape: @shape, show:)
            list = view.call(messages)
            @kept_lock.synchronize { @pending_reads = view.sent_text_files }
            list
          end

          # The request went out: the model saw the text files it sent.
          def commit_reads!
            files = @kept_lock.synchronize { @pending_reads.tap { @pending_reads = [] } }
            files.each { |file| store.record_read(file.path, file.digest || Native.sha256_hex(store.read(file.path))) }
          end

          # What the model gets for +result+ from +tool+ (named +tool_name+,
          # called with +arguments+): files become lines at once and are
          # kept, and long results are saved (see LongResults). read_file's
          # files are the store's own, shown in full until the next question.
          def tool_result(tool_name, tool, result, arguments = {})
            return tool_content(remember_read(result, arguments)) if own_read_file?(tool)

            result = files_as_lines(result) if LongResults.file_like?(result) || LongResults.attachments?(result)
            tool_limit = tool.class.respond_to?(:inline_limit) ? tool.class.inline_limit : nil
            tool_content(@long_results.shape(tool_name, result, tool_limit:, on_write: @on_write).first)
          end

          # The converted text of a kept file, or nil when nothing reads its
          # format. A paid converter (OCR) runs here, once per version.
          def converted_text(file)
            store.text(file.path)
          rescue RubyLLM::FileStore::ConversionError, RubyLLM::FileNotFoundError
            nil
          end

          private

          def keep(attachment, blob = nil)
            return nil if attachment.respond_to?(:provider_file?) && attachment.provider_file?

            bytes = attachment.content
            return nil unless bytes.is_a?(String)

            file, written = @keeper.keep_attachment(Keeper.safe_name(attachment.filename), bytes,
                                                    content_type: content_type_of(attachment), blob:)
            convert_locally(file)
            @on_write&.call(file) if written
            file
          rescue RubyLLM::FileStoreFullError, RubyLLM::FileStore::ReadOnlyError # not kept: it goes as it is
            nil
          rescue ArgumentError => e # a name no store takes: the attachment goes as it is
            Native.logger.warn("RubyLLM::FileStores: attachment not kept in the chat's files: #{e.message}")
            nil
          end

          # The attachment's type when it is a plain media type (an uploaded
          # blob's comes from the browser, and shows in the model's notes);
          # nil lets the store detect it.
          def content_type_of(attachment)
            type = attachment.respond_to?(:mime_type) ? attachment.mime_type : attachment.content_type
            type = Names.media_type(type)
            type == 'application/octet-stream' ? nil : type
          end

          def convert_locally(file)
            return unless store.respond_to?(:convert_locally) && !Native.text_content_type?(file.content_type)

            store.convert_locally(file.path)
          rescue RubyLLM::FileStore::ConversionError
            nil
          end

          # A result with files as the shape's ruby_llm takes it (see
          # Adapters::RubyLLM116.tool_content).
          def tool_content(result)
            @shape.respond_to?(:tool_content) ? @shape.tool_content(result) : result
          end

          def own_read_file?(tool)
            tool.is_a?(FileStore::Tools::Behaviour) && tool.name == 'read_file' && tool.store.equal?(store)
          end

          def remember_read(result, arguments)
            return result unless LongResults.file_like?(result)

            path = arguments.to_h.transform_keys(&:to_s)['path']
            file = path.is_a?(String) ? store[path] : nil
            @kept_lock.synchronize { @kept[result] = file } if file
            result
          rescue ArgumentError
            result
          end

          # A tool's files kept and named in lines; a file that cannot be
          # kept goes as it is.
          def files_as_lines(result)
            parts = Array(result).flatten.compact
            texts, files = parts.partition { |part| part.is_a?(String) }
            lines = []
            unkept = files.reject do |part|
              file = kept_file(part)
              lines << Lines.kept(file) if file
              file
            end
            text = Lines.append(texts.join("\n\n"), lines)
            unkept.empty? ? text : [text, *unkept]
          end
        end
      end
    end
  end
end
