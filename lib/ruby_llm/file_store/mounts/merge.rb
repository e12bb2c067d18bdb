# frozen_string_literal: true

module RubyLLM
  class FileStore
    class Mounts < FileStore
      # search_files over a tree of stores: each store that has files in the
      # searched folder is searched by its own engine (on disk for a
      # NativeDir, over its texts for the others), the default store first,
      # then the mounts by name, each given the time left of one deadline.
      # What they found (each a Native::SearchReport, as data) is merged in
      # the engine (Native::SearchReport.merge): the files the tree shows,
      # under their full paths, in path order, held to the caps of the
      # whole search, with one set of closing notes; where a store stopped
      # early (a cap, the deadline), the merged output stops at the last
      # file it reached, since the files after it were not all searched.
      # The glob means the same in every store: a store mounted inside the
      # searched folder matches it with the mount's place in front of its
      # paths (the request's +glob_lead+).
      class Merge # :nodoc:
        # +request+ is what FileStore::Search.arguments made.
        def initialize(table, request)
          @table = table
          @request = request
          @deadline = request[:timeout] && (Process.clock_gettime(Process::CLOCK_MONOTONIC) + request[:timeout])
        end

        # What the tree's search found (a Native::SearchReport).
        def run
          FileStores::Native::SearchReport.merge(@request, parts)
        end

        private

        # [prefix, report (nil: left unsearched, the time ran out), the
        # mounts hiding the store's files] for each store searched.
        def parts
          found = false
          parts = @table.sources_for(@request[:folder]).filter_map do |entry, inner|
            left = time_left
            report = left && left <= 0 ? :unsearched : search(entry, inner, left)
            next if report.nil?

            found = true
            [entry.prefix, (report unless report == :unsearched), @table.hiding(entry)]
          end
          raise RubyLLM::FileNotFoundError, "#{@request[:folder]} does not exist" unless found

          parts
        end

        # The store's report, or nil when it has no such folder.
        def search(entry, inner, left)
          request = @request.merge(folder: inner.to_s, glob_lead: lead(entry, inner), timeout: left)
          FullPaths.naming(entry, inner) { entry.store.search_report(request) }
        rescue RubyLLM::FileNotFoundError
          raise unless inner.nil? || @request[:folder].empty? || @table.mounts_inside(@request[:folder]).any?

          nil
        end

        # What +entry+'s paths get in front for the glob: for a mount inside
        # the searched folder, its place there.
        def lead(entry, inner)
          folder = @request[:folder]
          return @request[:glob_lead] if entry.default? || !inner.nil? || entry.name == folder

          "#{@request[:glob_lead]}#{folder.empty? ? entry.name : entry.name.delete_prefix("#{folder}/")}/"
        end

        def time_left
          @deadline && (@deadline - Process.clock_gettime(Process::CLOCK_MONOTONIC))
        end
      end
    end
  end
end
