# frozen_string_literal: true

module RubyLLM
  class FileStore
    class ChatFiles
      # What goes to the provider for a chat with files, made from its
      # messages without changing them:
      #
      # - the attachments of the latest question go in full, except those
      #   the provider cannot take, which go as their converted text (up to
      #   the inline limit) or, with no converter, as a line;
      # - earlier questions' attachments become one line each;
      # - files other tools return become lines at once; read_file's go in
      #   full until the next question, then become lines;
      # - an attachment not kept for a reason the model is told (a URL
      #   that could not be fetched) goes as it is, with a line saying why;
      # - the same file twice in one message is one line.
      #
      # Messages are read through +shape+ (attachments and text; see
      # ChatFiles::PlainMessages); the view builds changed ones with
      # +rebuild+ (message, text, attachments).
      class RequestView # :nodoc:
        # The text files the latest question sends as they are: the model
        # sees their exact bytes, so they count as read once the request
        # has gone out.
        attr_reader :sent_text_files

        # +kept+ maps an attachment to its StoredFile (nil: not kept, so it
        # goes as it is). +supported+ tells whether the provider takes an
        # attachment. +convert+ gives a StoredFile's text or nil. +show+
        # gives the attachment to send for one sent as it is (a copy under
        # a name that cannot forge its wrapper, say), by default itself.
        # +not_kept+ gives why an attachment was not kept, when the model
        # is told, else nil; +at_once+ whether it is a file a tool returned
        # that becomes a line at once.
        def initialize(kept:, supported:, convert:, rebuild:, inline_limit:, shape: ChatFiles::PlainMessages,
                       show: nil, not_kept: ->(_) {}, at_once: ->(_) { false })
          @shape = shape
          @kept = kept
          @not_kept = not_kept
          @at_once = at_once
          @supported = supported
          @convert = convert
          @rebuild = rebuild
          @inline_limit = inline_limit
          @show = show
          @sent_text_files = []
        end

        # The messages to send for +messages+.
        def call(messages)
          @sent_text_files = []
          latest = messages.rindex { |message| message.role == :user }
          messages.each_with_index.map do |message, index|
            next message if @shape.attachments(message).empty?

            case message.role
            when :user then index == latest ? latest_question(message) : as_lines(message)
            when :tool then latest.nil? || index > latest ? as_lines(message, only: @at_once) : as_lines(message)
            else message
            end
          end
        end

        private

        # +message+ with its attachments as lines (only those +only+
        # picks, when given); one that is not kept stays, with the line
        # saying why when there is one. The message itself when nothing
        # changes.
        def as_lines(message, only: nil)
          lines = []
          attachments = @shape.attachments(message)
          left = attachments.reject do |attachment|
            next false if only && !only.call(attachment)

            file = @kept.call(attachment)
            lines << (file ? Lines.kept(file) : not_kept_line(attachment))
            file
          end
          lines = lines.compact.uniq
          return message if lines.empty? && left.size == attachments.size

          @rebuild.call(message, Lines.append(@shape.text(message), lines), left)
        end

        def latest_question(message)
          texts = []
          sent = @shape.attachments(message).select do |attachment|
            text, goes = latest_part(attachment)
            texts << text if text
            goes
          end
          texts = texts.uniq
          shown = @show ? sent.map { |attachment| @show.call(attachment) } : sent
          return message if texts.empty? && shown.zip(sent).all? { |a, b| a.equal?(b) }

          @rebuild.call(message, Lines.append(@shape.text(message), texts), shown)
        end

        # What the latest question sends for +attachment+: [a text or
        # nil, whether the attachment itself goes]. A kept file the provider
        # takes goes as it is; one it cannot take goes as its converted text
        # or line instead; one not kept goes as it is, with the line saying
        # why when there is one.
        def latest_part(attachment)
          file = @kept.call(attachment)
          return [not_kept_line(attachment), true] unless file
          return [as_text(file), false] unless @supported.call(attachment)

          @sent_text_files << file if FileStores::Native.text_content_type?(file.content_type)
          [nil, true]
        end

        # The line for an attachment not kept, when the model is told why.
        def not_kept_line(attachment)
          reason = @not_kept.call(attachment)
          reason && Lines.url_not_kept(attachment.source, reason)
        end

        def as_text(file)
          text = @convert.call(file)
          text.nil? ? Lines.kept(file) : Lines.converted(file, text, @inline_limit)
        end
      end
    end
  end
end
