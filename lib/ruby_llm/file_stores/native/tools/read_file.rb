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
        PARAMETERS = {
          type: 'object',
          properties: {
            path: { type: 'string', description: 'The file to read, like "notes/plan.md".' },
            offset: { type: 'integer', description: 'The first line to read, from 1. Default: 1.' },
            limit: { type: 'integer', description: 'How many lines to read. Default: as many as fit.' }
          },
          required: ['path'],
          additionalProperties: false
        }.freeze

        # Pages its own output, so its results are never saved as long results.
        def self.included(tool_class) = tool_class.inline_limit(false)

        # Room kept for the note that says how to read on.
        NOTE_ROOM = 200

        def execute(path: nil, offset: nil, limit: nil)
          path = path_argument(path)
          offset = positive_integer(offset, 'offset')
          limit = positive_integer(limit, 'limit')
          file = store.find(path)
          bytes = store.read(path)
          text = Tools.text_of(store, file, bytes)
          return non_text(file, bytes) if text.nil?

          store.record_read(path, sha256(bytes)) # the digest of the whole file, whatever part is shown
          window(path, text, offset || 1, limit)
        end

        private

        def positive_integer(value, name)
          return nil if value.nil?

          value = Integer(value, exception: false) if value.is_a?(String)
          raise Refusal, "#{name} must be a whole number from 1" unless value.is_a?(Integer) && value >= 1

          value
        end

        def non_text(file, bytes)
          if file.content_type.start_with?('image/') || file.content_type == 'application/pdf'
            store.record_read(file.path, sha256(bytes))
            return Tools.attachment(file, bytes)
          end

          "#{file.path} (#{file.content_type}, #{file.human_size}) has no text to read."
        end

        def window(path, text, first, limit)
          lines = text.lines
          total = lines.size
          raise Refusal, "offset #{first} is past the end: #{path} has #{total} lines." if first > [total, 1].max

          wanted = lines[first - 1, limit || total] || []
          budget = inline_limit ? [inline_limit - NOTE_ROOM, 1].max : Float::INFINITY
          shown, cut_line = take_lines(wanted, budget)
          last = first + shown.size - 1
          body = shown.join
          note = window_note(path, first, last, total, cut_line)
          return body if note.nil?

          "#{body}#{"\n" unless body.end_with?("\n") || body.empty?}#{note}"
        end

        # The lines that fit in +budget+ characters; a first line longer than
        # the budget is cut (and reported as cut).
        def take_lines(lines, budget)
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
