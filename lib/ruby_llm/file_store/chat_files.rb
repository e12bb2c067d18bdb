# frozen_string_literal: true

require_relative 'chat_files/setup'
require_relative 'chat_files/attachment_blobs'
require_relative 'chat_files/names'
require_relative 'chat_files/keeper'
require_relative 'chat_files/lines'
require_relative 'chat_files/blocked_addresses'
require_relative 'chat_files/url_fetch'
require_relative 'chat_files/url_attachment'
require_relative 'chat_files/long_results'
require_relative 'chat_files/request_view'
require_relative 'chat_files/plain_messages'

module RubyLLM
  class FileStore
    # A chat's files: its store and tools, the attachments it kept, the
    # long results it saved, and the reads that wait for a request to go
    # out. Integration::ChatExtension keeps one per chat; it is plain Ruby, so it works
    # (and is specced) without ruby_llm, on anything shaped like
    # attachments (filename, content, mime_type), reading messages
    # through a shape: the adapter of the loaded ruby_llm, or
    # PlainMessages (role, content, attachments).
    class ChatFiles # :nodoc:
      NOT_KEPT = Object.new.freeze
      private_constant :NOT_KEPT
      # An attachment not kept for a reason the model is told (a URL
      # that could not be fetched).
      NotKept = Struct.new(:reason)
      private_constant :NotKept

      attr_reader :setup

      # +on_write+ is called with each StoredFile the conversation writes.
      # +shape+ reads messages: attachments, text, supported? and
      # rebuild (see Integration::Adapters::RubyLLM2).
      def initialize(setup, on_write: nil, shape: PlainMessages)
        @setup = setup
        @on_write = on_write
        @shape = shape
        @keeper = Keeper.new(setup.store)
        @long_results = LongResults.new(setup.store, limit: setup.inline_limit, keeper: @keeper)
        @kept = ObjectSpace::WeakMap.new # attachment => StoredFile, NOT_KEPT or a NotKept
        @returned = ObjectSpace::WeakMap.new # files tools (other than read_file) returned => true
        # A WeakMap holds its values weakly too: each NotKept is held
        # here, so the reason stays known and the URL is not fetched again.
        @reasons = {}
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
        return known.is_a?(RubyLLM::StoredFile) ? known : nil if known

        outcome = keep(attachment, blob || AttachmentBlobs.of(attachment))
        @kept_lock.synchronize { @kept[attachment] = outcome || NOT_KEPT }
        outcome.is_a?(RubyLLM::StoredFile) ? outcome : nil
      end

      # Why +attachment+ was not kept when the model is told (a URL that
      # could not be fetched: "the server answered 404 Not Found"), else nil.
      def not_kept_reason(attachment)
        known = @kept_lock.synchronize { @kept[attachment] }
        known.is_a?(NotKept) ? known.reason : nil
      end

      # Whether +attachment+ is a file a tool returned (other than
      # read_file), which the model sees as its line at once.
      def returned_by_tool?(attachment) = @kept_lock.synchronize { @returned.key?(attachment) }

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
                               rebuild:, inline_limit:, shape: @shape, show:,
                               not_kept: method(:not_kept_reason), at_once: method(:returned_by_tool?))
        list = view.call(messages)
        @kept_lock.synchronize { @pending_reads = view.sent_text_files }
        list
      end

      # The request went out: the model saw the text files it sent.
      def commit_reads!
        files = @kept_lock.synchronize { @pending_reads.tap { @pending_reads = [] } }
        files.each { |f| store.record_read(f.path, f.digest || FileStores::Native.sha256_hex(store.read(f.path))) }
      end

      # What the tool result message holds for +result+ from +tool+
      # (named +tool_name+, called with +arguments+): the files a tool
      # returns stay in it as they are, and are kept (the request shows
      # them as lines at once: see RequestView); a long text is saved
      # and the message holds its start (see LongResults). read_file's
      # files are the store's own, shown in full until the next question.
      def tool_result(tool_name, tool, result, arguments = {})
        return tool_content(remember_read(result, arguments)) if own_read_file?(tool)

        tool_limit = tool.class.respond_to?(:inline_limit) ? tool.class.inline_limit : nil
        # As the shape's ruby_llm reads it (its ArgumentError for a mix it refuses).
        split = @shape.tool_files(result)
        return tool_content(shape_text(tool_name, result, tool_limit)) unless split

        text, files = split
        keep_returned(files)
        shaped = shape_text(tool_name, text, tool_limit)
        tool_content(shaped.equal?(text) ? result : [shaped, *files])
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

        bytes = bytes_of(attachment)
        return bytes if bytes.is_a?(NotKept)
        return nil unless bytes.is_a?(String)

        file, written = @keeper.keep_attachment(Keeper.safe_name(attachment.filename), bytes,
                                                content_type: content_type_of(attachment), blob:)
        convert_locally(file)
        @on_write&.call(file) if written
        file
      rescue RubyLLM::FileStoreFullError, RubyLLM::FileStore::ReadOnlyError # not kept: it goes as it is
        nil
      rescue ArgumentError => e # a name no store takes: the attachment goes as it is
        FileStores::Native.logger.warn("RubyLLM::FileStores: attachment not kept in the chat's files: #{e.message}")
        nil
      end

      # The bytes of +attachment+: its content, or for a URL what a
      # careful fetch gets (see UrlAttachment), or a NotKept saying why not.
      def bytes_of(attachment)
        UrlAttachment.url(attachment) ? UrlAttachment.bytes(attachment, shape: @shape, store:) : attachment.content
      rescue UrlFetch::Refused => e
        @kept_lock.synchronize { @reasons[e.message] ||= NotKept.new(e.message).freeze }
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
        return if FileStores::Native.text_content_type?(file.content_type)

        store.convert_locally(file.path)
      rescue RubyLLM::FileStore::ConversionError
        nil
      end

      # A result with files as the shape's ruby_llm takes it (see
      # Integration::Adapters::RubyLLM116.tool_content).
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

      # A tool's files kept, and known as returned by a tool.
      def keep_returned(files)
        files.each do |file|
          kept_file(file)
          @kept_lock.synchronize { @returned[file] = true }
        end
      end

      # +text+ as the message holds it: itself, or the start of a long
      # one saved in the store.
      def shape_text(tool_name, text, tool_limit)
        @long_results.shape(tool_name, text, tool_limit:, on_write: @on_write).first
      end
    end
  end
end
