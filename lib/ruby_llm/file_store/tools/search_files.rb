# frozen_string_literal: true

module RubyLLM
  class FileStore
    module Tools
      # search_files: grep over the store's text files and the text already
      # extracted from other formats. It never runs a converter.
      module SearchFiles
        TOOL_NAME = 'search_files'
        DESCRIPTION = <<~TEXT.strip
          Searches your files like grep: pattern is a regular expression (escape special characters such as
          . ( [ for literal text). It ignores case unless case_sensitive is true. path narrows to a folder;
          glob to file names ("*.md") or paths ("reports/**/*.csv"). context shows that many lines around
          each match. files_only lists the files that match instead of the lines, which is a good first
          step. Output lines are path:line:text for matches and path-line-text for context, with -- between
          groups. It stops after 100 matching lines or 20,000 characters. It searches text files and the
          text already read from other formats; it names the files it skipped, which read_file can read.
        TEXT
        PARAMETERS = Behaviour.arguments(
          ['pattern'],
          pattern: { type: 'string', description: 'A regular expression, like "terminat(e|ion)".' },
          path: { type: 'string', description: 'A folder to search, like "contracts". Default: every file.' },
          glob: { type: 'string', description: 'A name pattern, like "*.md" or "reports/**/*.csv".' },
          case_sensitive: { type: 'boolean', description: 'Match case exactly. Default: false.' },
          context: { type: 'integer', description: 'Lines to show before and after each match. Default: 0.' },
          files_only: { type: 'boolean', description: 'List matching files instead of lines. Default: false.' }
        )

        # Pages its own output, so its results are never saved as long results.
        def self.included(tool_class) = tool_class.inline_limit(false)

        # The lines (or with +files_only+ the files) that match +pattern+; what the model sees.
        def execute(pattern: nil, path: nil, glob: nil, case_sensitive: false, context: 0, files_only: false)
          raise Refusal, 'pattern is required: a regular expression' unless pattern.is_a?(String) && !pattern.empty?

          context = Integer(context || 0, exception: false)
          raise Refusal, 'context must be a whole number from 0 to 50' unless context&.between?(0, 50)

          Search.run(store, pattern, path:, glob:, case_sensitive: case_sensitive == true,
                                     context:, files_only: files_only == true, timeout: search_timeout)
        rescue RubyLLM::FileNotFoundError
          raise Refusal, "There is no folder #{FileStore.folder(path)} in the store."
        end
      end
    end
  end
end
