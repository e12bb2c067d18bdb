# frozen_string_literal: true

module RubyLLM
  class FileStore
    module Tools
      # write_file: creates or replaces a whole file.
      module WriteFile
        TOOL_NAME = 'write_file'
        DESCRIPTION = <<~TEXT.strip
          Creates a file, or replaces a whole file, with content. Folders are created as needed.
          To replace an existing file, read it with read_file first; if it changed since you read it,
          read it again. To change part of a file, use edit_file instead.
        TEXT
        PARAMETERS = Behaviour.arguments(
          %w[path content],
          path: { type: 'string', description: 'The file to write, like "notes/summary.md".' },
          content: { type: 'string', description: 'The whole new content of the file.' }
        )

        # Creates or replaces the file at +path+ with +content+; what the model sees.
        def execute(path: nil, content: nil)
          path = path_argument(path)
          raise Refusal, 'content is required: the whole new content of the file' unless content.is_a?(String)

          file, existed = store.with_lock do
            old = check_read_before_change(path)
            written = store.write(path, content)
            store.record_read(path, written.digest || sha256(content.b))
            [written, !old.nil?]
          end
          lines = lines_in(content)
          "#{existed ? 'Replaced' : 'Created'} #{path} (#{lines} #{lines == 1 ? 'line' : 'lines'}, #{file.human_size})."
        end
      end
    end
  end
end
