# frozen_string_literal: true

module RubyLLM
  class FileStore
    # A window of a text file's lines, as read_file shows it (see
    # RubyLLM::FileStore#read_lines):
    #
    # - +text+: the lines shown, each with its newline;
    # - +shown+: how many lines +text+ holds;
    # - +total+: how many lines the file has;
    # - +cut+: the first line wanted was longer than +max_chars+, and +text+
    #   is its start;
    # - +digest+: the sha256 of the whole file the lines came from.
    LineWindow = Struct.new(:text, :shown, :total, :cut, :digest, keyword_init: true) do
      # The window of +text+ (already decoded): lines +first+ (from 1) on,
      # +limit+ of them (nil: to the end), as many as fit in +max_chars+
      # characters (nil: no limit). A line that does not fit ends the window,
      # except the first, which is cut. Counted in Rust without the GVL, in
      # memory for the lines shown (never a String per line of the text);
      # NativeDir computes the same window while it reads.
      def self.of_text(text, first: 1, limit: nil, max_chars: nil, digest: nil)
        text = text.encode(Encoding::UTF_8, invalid: :replace, undef: :replace) unless utf8_bytes?(text)
        window = FileStores::Native.text_line_window(text, { offset: first, limit:, max_chars: })
        digest.nil? ? window : new(**window.to_h, digest:)
      end

      # Whether +text+'s bytes are read as UTF-8 as they are.
      def self.utf8_bytes?(text)
        text.encoding == Encoding::UTF_8 || (text.ascii_only? && text.encoding.ascii_compatible?)
      end
      private_class_method :utf8_bytes?

      # Raises ArgumentError unless the arguments of read_lines are whole
      # numbers up to MAX_LINE_NUMBER: +offset+ from 1, +limit+ from 0 or
      # nil, +max_chars+ from 1 or nil.
      def self.check_arguments(offset, limit, max_chars)
        max = LineWindow::MAX_LINE_NUMBER
        unless offset.is_a?(Integer) && offset.between?(1, max)
          raise ArgumentError, "offset must be an Integer from 1 to #{max}, not #{offset.inspect}"
        end
        unless limit.nil? || (limit.is_a?(Integer) && limit.between?(0, max))
          raise ArgumentError, "limit must be nil or an Integer from 0 to #{max}, not #{limit.inspect}"
        end
        return if max_chars.nil? || (max_chars.is_a?(Integer) && max_chars.between?(1, max))

        raise ArgumentError, "max_chars must be nil or an Integer from 1 to #{max}, not #{max_chars.inspect}"
      end

      alias_method :cut?, :cut
    end
    # The largest offset, limit or max_chars read_lines takes: every store
    # holds it in a machine word.
    LineWindow::MAX_LINE_NUMBER = (2**62) - 1
  end
end
