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
            glob = Globs.for(@request[:glob], @request[:folder], entry, inner)
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

        def render(outputs)
          state = { out: +'', matches: 0, stop: nil, last: nil }
          cutoff = cutoff_of(outputs)
          blocks = outputs.flat_map { |entry, output| visible_blocks(entry, output) }.sort_by(&:path)
          blocks.each do |block|
            break if cutoff && block.path > cutoff[:path]
            break unless add(state, block)
          end
          stop_at(state, cutoff)
          finish(state, outputs)
        end

        # The blocks of +output+ the tree shows (not those of files a longer
        # mount hides, nor of those whose full path is too deep to name).
        def visible_blocks(entry, output)
          return [] unless output

          blocks = output.blocks.select do |block|
            @table.visible?(entry, block.path) && (entry.default? || FullPaths.reachable?(block.path))
          end
          entry.default? ? blocks : matching_glob(blocks)
        end

        # The blocks whose full paths the search's glob matches: a mount may
        # have been searched with a wider glob (see Globs.strip).
        def matching_glob(blocks)
          glob = @request[:glob]
          return blocks if glob.nil? || !glob.include?('/') || blocks.empty?

          keep = FileStores::Native.glob_filter(glob, @request[:folder], blocks.map(&:path)).to_set
          blocks.select { |block| keep.include?(block.path) }
        end

        # The path the merged output must stop at, and why: the earliest
        # where a store stopped before its end (a cap, the deadline), or the
        # place of a store the time left unsearched.
        def cutoff_of(outputs)
          stops = outputs.filter_map do |entry, output|
            next { path: entry.prefix, stop: :deadline } if output.nil?
            next nil unless output.stop

            # A file cut inside: the merge stops after its lines, at its path.
            { path: output.cut&.fetch(:path) || output.last_path || entry.prefix, stop: output.stop, cut: output.cut }
          end
          stops.min_by { |stop| stop[:path] }
        end

        # Why the merged output stopped: a cap it reached, else where a
        # store stopped (with the file the deadline cut, if it cut one).
        def stop_at(state, cutoff)
          return unless cutoff

          state[:stop] ||= cutoff[:stop]
          state[:cut] = cutoff[:cut] if state[:stop] == :deadline
        end

        # Adds +block+'s lines as long as the caps allow; false once one is
        # reached.
        def add(state, block)
          return false if between_groups?(state) && !push(state, "--\n")

          block.lines.each do |line|
            is_match = @request[:files_only] || line[block.path.size] == ':'
            return false if is_match && !room_for_match?(state)
            return false unless push(state, line)

            state[:matches] += 1 if is_match
          end
          state[:last] = block.path
          true
        end

        # Whether a "--" goes before the next file's lines, as the engine
        # puts one between files when it shows context.
        def between_groups?(state)
          !@request[:files_only] && @request[:context].positive? && !state[:out].empty?
        end

        def room_for_match?(state)
          return true unless @request[:max_matches] && state[:matches] >= @request[:max_matches]

          state[:stop] = :matches
          false
        end

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
          out << Notes.stop(state[:stop], @request, state[:last], outputs, cut: state[:cut]) if state[:stop]
          room = @request[:max_chars] ? [@request[:max_chars] - out.bytesize, 0].max : Float::INFINITY
          out << Notes.closing(outputs.filter_map(&:last), room)
        end
      end
    end
  end
end
