# frozen_string_literal: true

module RubyLLM
  class FileStore
    class CodeExecution
      # What a run's folder held before the run, held in Rust (see
      # FileStores::Native::RunTree): every entry, hidden ones and links
      # included, by fingerprint (inode, size, times, mode), down to the
      # depth a store path may have. After the run, #sweep walks it again,
      # without following links and with no path longer than one name, so a
      # tree of any depth is safe to meet.
      class Snapshot
        # What a run left, after the sweep.
        #
        # - created / changed / deleted: paths of the store's files (visible
        #   regular files).
        # - links: symbolic links the run made, which the store ignores.
        # - hidden: [path, bytes] of hidden files the run made or changed.
        # - removed: [shown path, reason] of what the sweep removed (reasons:
        #   :budget, :name, :too_deep), at most RunTree's 50; removed_count
        #   counts them all.
        # - too_deep: folders at the depth limit, there before, not walked.
        # - stripped: what lost setuid, setgid or world-write bits.
        # - sizes: path => bytes of the files among created and changed.
        Sweep = Struct.new(:created, :changed, :deleted, :links, :hidden, :removed, :removed_count, :too_deep,
                           :stripped, :sizes, keyword_init: true) do
          def self.empty
            new(created: [], changed: [], deleted: [], links: [], hidden: [], removed: [], removed_count: 0,
                too_deep: [], stripped: [], sizes: {})
          end

          def hidden_bytes = hidden.sum(&:last)
        end

        def self.take(root)
          new(root, FileStores::Native::RunTree.snapshot(root))
        end

        def self.hidden?(path) = path.split('/').any? { |name| name.start_with?('.') }

        def initialize(root, tree)
          @root = root
          @tree = tree
        end

        # Walks the folder again: removes, of what the run made or changed,
        # the names the store cannot address, folders too deep for a store
        # path, and whatever is past +entries+ or +bytes+ (apparent and
        # allocated, checked before anything is read); takes setuid, setgid
        # and world-write bits from the rest. +skip+: the mount points.
        def sweep(skip:, entries:, bytes:)
          left, deleted, removed, removed_count, too_deep, stripped, = @tree.sweep(@root, skip, entries, bytes)
          files, others = left.partition { |row| row[2] == :file }
          visible, hidden = files.partition { |path,| !self.class.hidden?(path) }
          Sweep.new(**split(visible), deleted: deleted.reject { |path| self.class.hidden?(path) },
                                      links: visible_links(others), hidden: hidden.map { |row| [row[0], row[3]] },
                                      removed:, removed_count:, too_deep:, stripped:)
        end

        private

        # created, changed and sizes of the visible files' rows.
        def split(rows)
          created, changed = rows.partition { |row| row[1] }
          { created: created.map(&:first).sort, changed: changed.map(&:first).sort,
            sizes: rows.to_h { |row| [row[0], row[3]] } }
        end

        def visible_links(rows)
          rows.filter_map { |path, _, kind| path if kind == :link && !self.class.hidden?(path) }
        end
      end
    end
  end
end
