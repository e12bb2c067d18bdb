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
      # The window of +text+ (already decoded) computed from the whole text:
      # lines +first+ (from 1) on, +limit+ of them (nil: to the end), as many
      # as fit in +max_chars+ characters (nil: no limit). A line that does
      # not fit ends the window, except the first, which is cut. NativeDir
      # computes the same window while it reads, in Rust.
      def self.of_text(text, first: 1, limit: nil, max_chars: nil, digest: nil)
        lines = text.lines
        wanted = lines[first - 1, limit || lines.size] || []
        shown, cut = fitting(wanted, max_chars || Float::INFINITY)
        new(text: shown.join, shown: shown.size, total: lines.size, cut:, digest:)
      end

      # The lines that fit in +budget+ characters, and whether the first was cut.
      def self.fitting(lines, budget)
        shown = []
        used = 0
        lines.each do |line|
          if used + line.size > budget
            return [[line[0, budget]], true] if shown.empty?

            break
          end
          shown << line
          used += line.size
        end
        [shown, false]
      end
      private_class_method :fitting

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
