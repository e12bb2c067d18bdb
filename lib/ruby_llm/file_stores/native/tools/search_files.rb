# frozen_string_literal: true

require 'timeout'

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
        PARAMETERS = {
          type: 'object',
          properties: {
            pattern: { type: 'string', description: 'A regular expression, like "terminat(e|ion)".' },
            path: { type: 'string', description: 'A folder to search, like "contracts". Default: every file.' },
            glob: { type: 'string', description: 'A name pattern, like "*.md" or "reports/**/*.csv".' },
            case_sensitive: { type: 'boolean', description: 'Match case exactly. Default: false.' },
            context: { type: 'integer', description: 'Lines to show before and after each match. Default: 0.' },
            files_only: { type: 'boolean', description: 'List matching files instead of lines. Default: false.' }
          },
          required: ['pattern'],
          additionalProperties: false
        }.freeze

        MAX_MATCHES = 100
        MAX_CHARS = 20_000
        MAX_LINE = 500
        DEADLINE = 10

        def execute(pattern: nil, path: nil, glob: nil, case_sensitive: false, context: 0, files_only: false)
          regexp = compile(pattern, case_sensitive)
          context = Integer(context || 0, exception: false)
          raise Refusal, 'context must be a whole number from 0' unless context&.between?(0, 50)

          folder = existing_folder(path)
          files = Tools.glob_filter(store.list(folder.empty? ? nil : folder), glob, folder)
          Timeout.timeout(DEADLINE) { Tools::Grep.new(store, regexp, context, files_only == true).run(files) }
        rescue Timeout::Error
          raise Refusal, "The search took longer than #{DEADLINE} seconds and stopped. " \
                         'Use a simpler pattern, or narrow with path or glob.'
        end

        private

        def existing_folder(path)
          folder = FileStore.folder(path)
          if !folder.empty? && store.list(folder).empty? && !store.exist?(folder)
            raise Refusal, "There is no folder #{folder} in the store."
          end

          folder
        end

        def compile(pattern, case_sensitive)
          raise Refusal, 'pattern is required: a regular expression' unless pattern.is_a?(String) && !pattern.empty?

          Regexp.new(pattern, case_sensitive == true ? nil : Regexp::IGNORECASE)
        rescue RegexpError => e
          raise Refusal, "pattern is not a valid regular expression (#{e.message}). " \
                         'Escape special characters such as . ( [ with \\ for literal text.'
        end
      end

      # The grep loop of search_files, with its caps.
      class Grep
        def initialize(store, regexp, context, files_only)
          @store = store
          @regexp = regexp
          @context = context
          @files_only = files_only
          @out = []
          @chars = 0
          @matches = 0
          @skipped = []
          @stopped = false
        end

        def run(files)
          files.each do |file|
            break if @stopped

            text = searchable_text(file)
            text.nil? ? @skipped << file.path : search(file.path, text)
          end
          finish
        end

        private

        def searchable_text(file)
          if FileStores::Native.text_content_type?(file.content_type)
            FileStores::Native.text_from_bytes(@store.read(file.path))
          else
            @store.cached_text(file)
          end
        end

        def search(path, text)
          lines = text.lines(chomp: true)
          hits = lines.each_index.select { |i| @regexp.match?(lines[i]) }
          return if hits.empty?
          return add("#{path}\n", count: true) if @files_only

          emit_groups(path, lines, hits)
        end

        # Matches and their context, in line order, with -- between groups
        # that do not touch.
        def emit_groups(path, lines, hits)
          matching = hits.to_h { |i| [i, true] }
          shown = lines_around(hits, lines.size)
          add("--\n") if @context.positive? && !@out.empty? # a group in an earlier file
          shown.each_with_index do |i, n|
            add("--\n") if n.positive? && i > shown[n - 1] + 1
            mark = matching[i] ? ':' : '-'
            add("#{path}#{mark}#{i + 1}#{mark}#{cut(lines[i])}\n", count: matching[i])
            break if @stopped
          end
        end

        # The line numbers (from 0) of the matches and their context.
        def lines_around(hits, count)
          hits.flat_map { |hit| ([hit - @context, 0].max..[hit + @context, count - 1].min).to_a }.uniq
        end

        def cut(line)
          return line if line.size <= SearchFiles::MAX_LINE

          at = line =~ @regexp || 0
          start = [at - (SearchFiles::MAX_LINE / 2), 0].max
          "#{'[...]' if start.positive?}#{line[start, SearchFiles::MAX_LINE]}[... line cut]"
        end

        def add(text, count: false)
          if @chars + text.size > SearchFiles::MAX_CHARS - 300 || (count && @matches >= SearchFiles::MAX_MATCHES)
            @stopped = true
            return
          end
          @out << text
          @chars += text.size
          @matches += 1 if count
        end

        def finish
          result = @out.join
          result = "No matches.\n" if result.empty?
          result += "[Stopped early: more matches remain. Narrow the search with path or glob.]\n" if @stopped
          result + skipped_note
        end

        def skipped_note
          return '' if @skipped.empty?

          names = @skipped.first(20).join(', ')
          more = @skipped.size > 20 ? " and #{@skipped.size - 20} more" : ''
          files = @skipped.size == 1 ? 'file' : 'files'
          "Skipped #{@skipped.size} #{files} with no extracted text: #{names}#{more}. Read them with read_file first.\n"
        end
      end
    end
  end
end
