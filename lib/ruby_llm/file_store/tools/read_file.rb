# frozen_string_literal: true

module RubyLLM
  class FileStore
    module Tools
      # read_file: a file's text, or a part of it by lines; images and PDFs
      # that no converter reads come back as the file itself.
      module ReadFile
        TOOL_NAME = 'read_file'
        DESCRIPTION = <<~TEXT.strip
          Reads a file from your file store. Text files come back as they are; Word, Excel and PowerPoint
          files and other formats as their text when a converter reads them; an image, or a PDF no
          converter reads, comes back as the file itself. A long file comes back in part, with a note
          saying how to read on: offset is the first line to read (1 is the first line) and limit how many
          lines. Read a file before changing it with edit_file or write_file.
        TEXT
        PARAMETERS = Behaviour.arguments(
          ['path'],
          path: { type: 'string', description: 'The file to read, like "notes/plan.md".' },
          offset: { type: 'integer', description: 'The first line to read, from 1. Default: 1.' },
          limit: { type: 'integer', description: 'How many lines to read. Default: as many as fit.' }
        )

        # Pages its own output, so its results are never saved as long results.
        def self.included(tool_class) = tool_class.inline_limit(false)

        # Room kept for the note that says how to read on.
        NOTE_ROOM = 200

        # Line numbers past this are past the end of any file: offset and
        # limit are clamped to it, so that no store is handed a number it
        # cannot hold (JSON allows integers of any size).
        LINE_NUMBER_MAX = FileStore::LineWindow::MAX_LINE_NUMBER

        # A window of the file's lines from +offset+, or the file itself; what the model sees.
        def execute(path: nil, offset: nil, limit: nil)
          path = path_argument(path)
          first = positive_integer(offset, 'offset') || 1
          limit = positive_integer(limit, 'limit')&.clamp(1, LINE_NUMBER_MAX)
          file = store.find(path)
          from = first.clamp(1, LINE_NUMBER_MAX)
          window = if FileStores::Native.text_content_type?(file.content_type)
                     store.read_lines(file.path, offset: from, limit:, max_chars: budget)
                   else
                     converted_window(file, from, limit)
                   end
          return window unless window.is_a?(LineWindow)

          store.record_read(file.path, window.digest) # the digest of the whole file, whatever part is shown
          show(file.path, window, first)
        end

        private

        def positive_integer(value, name)
          return nil if value.nil?

          value = Integer(value, exception: false) if value.is_a?(String)
          raise Refusal, "#{name} must be a whole number from 1" unless value.is_a?(Integer) && value >= 1

          value
        end

        # Characters the lines may take, leaving room for the note; nil for no limit.
        def budget
          inline_limit ? [inline_limit - NOTE_ROOM, 1].max : nil
        end

        # The window of a file whose format is not text: the converted text,
        # or the file itself (an image or a PDF), or a note saying it has no text.
        def converted_window(file, first, limit)
          bytes = store.read(file.path)
          text = Tools.text_of(store, file, bytes)
          return non_text(file, bytes) if text.nil?

          LineWindow.of_text(text, first:, limit:, max_chars: budget, digest: sha256(bytes))
        end

        def non_text(file, bytes)
          if file.content_type.start_with?('image/') || file.content_type == 'application/pdf'
            store.record_read(file.path, sha256(bytes))
            return Tools.attachment(file, bytes)
          end

          "#{file.path} (#{file.content_type}, #{file.human_size}) has no text to read."
        end

        def show(path, window, first)
          if first > [window.total, 1].max
            raise Refusal, "offset #{first} is past the end: #{path} has #{window.total} lines."
          end

          last = first + window.shown - 1
          body = window.text
          note = window_note(path, first, last, window.total, window.cut)
          return body if note.nil?

          "#{body}#{"\n" unless body.end_with?("\n") || body.empty?}#{note}"
        end

        def window_note(path, first, last, total, cut_line)
          if cut_line
            return "[Line #{first} of #{path} is longer than this result can hold; only its start is shown. " \
                   'Use search_files to find text in it.]'
          end
          return nil if first == 1 && last >= total

          more = last < total ? " Read on with offset: #{last + 1}." : ''
          "[Lines #{first}-#{last} of #{total} in #{path}.#{more}]"
        end
      end
    end
  end
end
