# frozen_string_literal: true

module RubyLLM
  class FileStore
    class Mounts < FileStore
      # The listing of a folder of a tree: every store's files in it, under
      # their full paths, sorted by path; what each store left out; the
      # mounts in it with no file yet (+empty+), which no file would show;
      # and, left out as too deep, the mounts' files whose full path is too
      # deep or too long to name.
      class Listings # :nodoc:
        def initialize(table)
          @table = table
        end

        # See RubyLLM::FileStore#listing; +folder+ is normalised.
        def listing(folder)
          parts = @table.sources_for(folder).map do |entry, inner|
            [entry, inner, FullPaths.naming(entry, inner) { entry.store.listing(inner) }]
          end
          files = parts.flat_map { |entry, _, part| visible_files(entry, part.files) }
          deep = (left_out(parts, :deep) + too_deep(parts)).uniq.sort!
          Listing.new(files: files.sort_by!(&:path), unnamed: left_out(parts, :unnamed), deep:,
                      empty: empty_mounts(parts, folder))
        end

        private

        # The paths of kind +kind+ (:unnamed, :deep) the stores' listings left
        # out, under their full paths.
        def left_out(parts, kind)
          parts.flat_map { |entry, _, part| part[kind].map { |name| entry.full(name) } }.sort!
        end

        # The mounts inside +folder+ (not the one listed) that show no file.
        def empty_mounts(parts, folder)
          parts.filter_map do |entry, inner, part|
            next nil if entry.default? || !inner.nil? || entry.name == folder
            next nil if part.files.any? { |file| @table.visible?(entry, entry.full(file.path)) }

            entry.name
          end
        end

        # The folders of the mounts' files whose full path no store path can
        # be (deeper, or longer, than a store path reaches, once the mount's
        # name is in front), which the model could not name.
        def too_deep(parts)
          parts.flat_map do |entry, _, part|
            next [] if entry.default?

            part.files.filter_map do |file|
              full = entry.full(file.path)
              File.dirname(full) if @table.visible?(entry, full) && !FullPaths.reachable?(full)
            end
          end
        end

        def visible_files(entry, files)
          files.filter_map do |file|
            full = entry.full(file.path)
            next nil unless @table.visible?(entry, full)
            next nil unless entry.default? || FullPaths.reachable?(full)

            FullPaths.file(entry, file)
          end
        end
      end
    end
  end
end
