# frozen_string_literal: true

module RubyLLM
  class FileStore
    class Mounts < FileStore
      # One store's search output taken apart, with full paths: the output
      # lines of each file in order (Block), why it stopped, and the files
      # its notes name. The engine writes "path:line:text" for a match,
      # "path-line-text" for context and "--" between groups; a path may
      # itself hold ":12:", so where a line's path ends is found among the
      # places that could end one by asking the store which is a file.
      class StoreOutput
        # A file's lines (each ending in a newline); +matches+ counts the
        # matching ones.
        Block = Struct.new(:path, :lines, :matches, keyword_init: true)

        STOPPED_MATCHES = /\A\[Stopped after \d+ (?:files|matching lines); there are more\. /
        STOPPED_CHARS = /\A\[Stopped at \d+ characters; there are more matches\. /
        STOPPED_DEADLINE = /\A\[Stopped: the search ran out of time after (\d+) files(?:, up to .*)?\. Narrow/m
        # The deadline inside a file the store searched as it arrived: the
        # line reached (none: its start), and the files searched before it.
        STOPPED_IN_FILE = Regexp.new(
          '\\A\\[Stopped: the search ran out of time (?:at line (\\d+) of (.+?)|at the start of (.+?))' \
          '(?:, after (\\d+) files? before it)?\\. Read the rest of that file', Regexp::MULTILINE
        )
        # A line number and the separator after it, from where the path ends.
        LINE_NUMBER = { ':' => /\G\d+:/, '-' => /\G\d+-/ }.freeze
        MORE_NAMES = /(?:, and (\d+) more|\A(\d+) not named here)\z/

        # Where the deadline cut a file, as { path: (full), line: }, or nil.
        attr_reader :blocks, :stop, :searched, :notes, :cut

        # +output+ from +entry+'s store; +files_only+ as the search was asked.
        def initialize(entry, output, files_only:)
          @entry = entry
          @files_only = files_only
          @blocks = []
          @stop = nil
          @searched = nil
          @notes = Hash.new { |hash, kind| hash[kind] = { count: 0, names: [] } }
          @known = {}
          lines = output.lines
          read_notes(lines)
          lines = [] if lines == ["No matches.\n"]
          files_only ? read_paths(lines) : read_lines(lines)
        end

        # The path of the last file this output showed.
        def last_path = @blocks.last&.path

        private

        # Takes the closing notes off the end of +lines+.
        def read_notes(lines)
          while (line = lines.last)
            kind, count, names = note(line)
            if kind
              @notes[kind][:count] += count
              @notes[kind][:names].unshift(*names)
            elsif line.match?(STOPPED_MATCHES) then @stop = :matches
            elsif line.match?(STOPPED_CHARS) then @stop = :chars
            elsif (deadline = line.match(STOPPED_DEADLINE))
              @stop = :deadline
              @searched = Integer(deadline[1])
            elsif (cut = line.match(STOPPED_IN_FILE)) then read_cut(cut)
            else
              break
            end
            lines.pop
          end
        end

        def read_cut(found)
          @stop = :deadline
          @searched = Integer(found[4] || 0)
          @cut = { path: @entry.full(found[2] || found[3]), line: Integer(found[1] || 0) }
        end

        # [kind, count, full names] of a closing note, or nil.
        def note(line)
          Notes::ENGINE.each do |kind, _one, _many, patterns|
            patterns.each do |pattern|
              found = line.match(pattern) or next
              return [kind, Integer(found[1]), names(found[2])]
            end
          end
          nil
        end

        def names(text)
          more = text.match(MORE_NAMES)
          text = more ? text[0, more.begin(0)] : text
          text.empty? ? [] : text.split(', ').map { |name| @entry.full(name) }
        end

        def read_paths(lines)
          lines.each do |line|
            path = @entry.full(line.chomp)
            @blocks << Block.new(path:, lines: ["#{path}\n"], matches: 1)
          end
        end

        def read_lines(lines)
          block = nil
          pending_break = false
          lines.each do |line|
            if line == "--\n"
              pending_break = true
              next
            end
            inner, separator = split(line, block && @entry.inner(block.path))
            if block.nil? || @entry.full(inner) != block.path
              block = Block.new(path: @entry.full(inner), lines: [], matches: 0)
              @blocks << block
            elsif pending_break
              block.lines << "--\n"
            end
            pending_break = false
            block.lines << "#{@entry.prefix}#{line}"
            block.matches += 1 if separator == ':'
          end
        end

        # [path, separator] of an output line: the current file's when the
        # line is one of its, else the first place that ends the path of a
        # file the store has.
        def split(line, current)
          if current
            separator = line[current.size]
            return [current, separator] if line.start_with?(current) && own_line?(line, current.size, separator)
          end
          ends = []
          line.scan(/([:-])\d+\1/) { ends << [Regexp.last_match.begin(0), Regexp.last_match(1)] }
          # One place is the path's end (the usual line); the store is asked
          # only when the path or the text holds another.
          at, separator = (ends.size > 1 && ends.find { |index, _| file?(line[0, index]) }) || ends.first ||
                          [line.size, ':']
          [line[0, at], separator]
        end

        def own_line?(line, at, separator)
          pattern = LINE_NUMBER[separator] or return false
          line.match?(pattern, at + 1)
        end

        def file?(inner)
          @known.fetch(inner) { @known[inner] = (!@entry.store[inner].nil? rescue false) } # rubocop:disable Style/RescueModifier -- not a path: not a file
        end
      end
    end
  end
end
