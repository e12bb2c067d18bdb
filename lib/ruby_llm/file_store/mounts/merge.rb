# frozen_string_literal: true

module RubyLLM
  class FileStore
    class Mounts < FileStore
      # search_files over a tree of stores: each store that has files in the
      # searched folder is searched by its own engine (on disk for a
      # NativeDir, over its texts for the others), the default store first,
      # then the mounts by name, each given the time left of one deadline.
      # Their outputs are merged in path order and held to the caps of the
      # whole search (matching lines or files, characters), with one set of
      # closing notes; where a store stopped early (a cap, the deadline), the
      # merged output stops at the last file it reached, since the files
      # after it were not all searched.
      class Merge
        # Characters kept for the closing notes, as the engine keeps.
        NOTE_ROOM = 700
        NOTE_NAMES = 20
        NARROW = 'Narrow the search with path or glob, or a more specific pattern.'

        # +request+ is what FileStore::Search.arguments made.
        def initialize(table, request)
          @table = table
          @request = request
          @deadline = request[:timeout] && (Process.clock_gettime(Process::CLOCK_MONOTONIC) + request[:timeout])
        end

        # The output the model sees.
        def run
          outputs = searched_outputs
          render(outputs)
        end

        private

        # Each store's output, taken apart, and [entry, reason] for the stores
        # left unsearched because the time ran out.
        def searched_outputs
          found = false
          outputs = []
          @table.sources_for(@request[:folder]).each do |entry, inner|
            glob = glob_for(entry, inner)
            next if glob == :none

            left = time_left
            if left && left <= 0
              outputs << [entry, nil]
              found = true
              next
            end
            output = search(entry, inner, glob, left)
            next if output.nil?

            found = true
            outputs << [entry, StoreOutput.new(entry, output, files_only: @request[:files_only])]
          end
          raise RubyLLM::FileNotFoundError, "#{@request[:folder]} does not exist" unless found

          outputs
        end

        # The store's output, or nil when it has no such folder.
        def search(entry, inner, glob, left)
          options = @request.slice(:case_sensitive, :context, :files_only, :max_matches, :max_chars)
          FullPaths.naming(entry, inner) do
            entry.store.search(@request[:pattern], path: inner, glob:, **options, timeout: left)
          end
        rescue RubyLLM::FileNotFoundError
          raise unless inner.nil? || @request[:folder].empty? || @table.mounts_inside(@request[:folder]).any?

          nil
        end

        def time_left
          @deadline && (@deadline - Process.clock_gettime(Process::CLOCK_MONOTONIC))
        end

        # The glob for +entry+'s store searched at +inner+ (nil: its whole
        # store), or :none when no path of it can match. A glob without a
        # slash matches file names anywhere; with one it matches paths inside
        # the searched folder, so for a mount inside that folder the mount's
        # place is taken off its front.
        def glob_for(entry, inner)
          glob = @request[:glob]
          return glob if glob.nil? || !glob.include?('/') || !inner.nil? || entry.default? ||
                         entry.name == @request[:folder]

          relative = @request[:folder].empty? ? entry.name : entry.name.delete_prefix("#{@request[:folder]}/")
          strip(glob, relative.split('/'))
        end

        # +glob+ with the folders +parts+ matched off its front.
        def strip(glob, parts)
          segments = glob.split('/')
          parts.each do |part|
            return glob if segments.first == '**' # ** takes any folders, the mount's too

            segment = segments.shift
            return :none if segment.nil? || segments.empty?
            return :none unless File.fnmatch?(segment, part, File::FNM_EXTGLOB | File::FNM_DOTMATCH)
          end
          rest = segments.join('/')
          rest.include?('/') ? rest : "/#{rest}"
        end

        def render(outputs)
          state = { out: +'', matches: 0, stop: nil, last: nil }
          cutoff = cutoff_of(outputs)
          blocks = outputs.flat_map { |entry, output| visible_blocks(entry, output) }.sort_by(&:path)
          blocks.each do |block|
            break if cutoff && block.path > cutoff[:path]
            break unless add(state, block)
          end
          state[:stop] ||= cutoff && cutoff[:stop]
          finish(state, outputs)
        end

        # The blocks of +output+ the tree shows (not those of files a longer
        # mount hides).
        def visible_blocks(entry, output)
          return [] unless output

          output.blocks.select { |block| @table.visible?(entry, block.path) }
        end

        # The path the merged output must stop at, and why: the earliest
        # where a store stopped before its end (a cap, the deadline), or the
        # place of a store the time left unsearched.
        def cutoff_of(outputs)
          stops = outputs.filter_map do |entry, output|
            next { path: entry.prefix, stop: :deadline } if output.nil?
            next nil unless output.stop

            { path: output.last_path || entry.prefix, stop: output.stop }
          end
          stops.min_by { |stop| stop[:path] }
        end

        def add(state, block)
          if !@request[:files_only] && @request[:context].positive? && !state[:out].empty? && !push(state, "--\n")
            return false
          end

          block.lines.each do |line|
            is_match = @request[:files_only] || match_line?(line, block.path)
            if is_match && @request[:max_matches] && state[:matches] >= @request[:max_matches]
              state[:stop] = :matches
              return false
            end
            return false unless push(state, line)

            state[:matches] += 1 if is_match
          end
          state[:last] = block.path
          true
        end

        def match_line?(line, path) = line[path.size] == ':'

        def push(state, text)
          max = @request[:max_chars]
          if max && state[:out].bytesize + text.bytesize > [max - NOTE_ROOM, 0].max
            state[:stop] = :chars
            return false
          end
          state[:out] << text
          true
        end

        def finish(state, outputs)
          out = state[:out]
          out << "No matches.\n" if out.empty?
          out << stop_note(state, outputs) if state[:stop]
          room = @request[:max_chars] ? [@request[:max_chars] - out.bytesize, 0].max : Float::INFINITY
          StoreOutput::NOTES.each do |kind, one, many, _|
            paths, count = noted(outputs, kind)
            text = note(paths, count, one, many, room) or next
            room -= text.bytesize
            out << text
          end
          out
        end

        def stop_note(state, outputs)
          case state[:stop]
          when :matches
            what = @request[:files_only] ? 'files' : 'matching lines'
            "[Stopped after #{@request[:max_matches]} #{what}; there are more. #{NARROW}]\n"
          when :chars
            "[Stopped at #{@request[:max_chars]} characters; there are more matches. #{NARROW}]\n"
          else
            upto = state[:last] ? ", up to #{state[:last]}" : ''
            "[Stopped: the search ran out of time after #{searched(outputs)} files#{upto}. #{NARROW}]\n"
          end
        end

        # How many files were searched before the time ran out: what each
        # store that stopped says, and every file of those that finished.
        def searched(outputs)
          outputs.sum do |entry, output|
            next 0 if output.nil?
            next output.searched if output.searched

            entry.store.list.size
          end
        end

        # The full paths a kind of note names, sorted, and how many files it
        # counts in all.
        def noted(outputs, kind)
          notes = outputs.filter_map { |_, output| output&.notes&.fetch(kind, nil) }
          [notes.flat_map { |n| n[:names] }.sort, notes.sum { |n| n[:count] }]
        end

        # The note for +count+ files, naming as many of +paths+ as fit in
        # +room+ characters (at most NOTE_NAMES), as the engine words it.
        def note(paths, count, one, many, room)
          return nil if count.zero?

          before, after = (count == 1 ? one : many).sub('{n}', count.to_s).split('{names}')
          after = "#{after}\n"
          rest = lambda do |shown|
            more = count - shown
            return '' if more.zero?

            shown.zero? ? "#{more} not named here" : ", and #{more} more"
          end
          fits = ->(names) { before.bytesize + names.bytesize + after.bytesize <= room }
          names = +''
          shown = 0
          paths.first(NOTE_NAMES).each do |path|
            longer = shown.zero? ? path : "#{names}, #{path}"
            break unless fits.call(longer + rest.call(shown + 1))

            names = longer
            shown += 1
          end
          names << rest.call(shown)
          fits.call(names) ? "#{before}#{names}#{after}" : nil
        end
      end
    end
  end
end
