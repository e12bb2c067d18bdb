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
      class Snapshot # :nodoc:
        # The members of a Sweep that are lists of paths.
        PATHS = %i[created changed deleted links too_deep stripped unreadable].freeze

        # What a run left, after the sweep.
        #
        # - created / changed / deleted: paths of the store's files (visible
        #   regular files).
        # - links: symbolic links the run made, which the store ignores.
        # - hidden: [path, bytes] of hidden files the run made or changed.
        # - removed: [shown path, reason] of what the sweep removed (reasons:
        #   :budget, :name, :too_deep, :special), at most RunTree's 50; removed_count
        #   counts them all.
        # - too_deep: folders at the depth limit, there before, not walked.
        # - stripped: what lost setuid, setgid or world-write bits.
        # - unreadable: what could not be opened or looked at, even given
        #   back to its owner, so was not checked.
        # - sizes: path => bytes of the files among created and changed.
        Sweep = Struct.new(:created, :changed, :deleted, :links, :hidden, :removed, :removed_count, :too_deep,
                           :stripped, :unreadable, :sizes, keyword_init: true) do
          def self.empty
            new(created: [], changed: [], deleted: [], links: [], hidden: [], removed: [], removed_count: 0,
                too_deep: [], stripped: [], unreadable: [], sizes: {})
          end

          def hidden_bytes = hidden.sum(&:last)

          # The same, each path under +prefix+ (a mount's name; '' none):
          # what a mount's folder, swept on its own, is in the tree.
          def within(prefix)
            return self if prefix.empty?

            at = ->(path) { "#{prefix}/#{path}" }
            copy = dup
            PATHS.each { |key| copy[key] = self[key].map(&at) }
            copy.hidden = hidden.map { |path, size| [at.call(path), size] }
            copy.removed = removed.map { |path, why| [at.call(path), why] }
            copy.sizes = sizes.transform_keys(&at)
            copy
          end

          # How much of a run's budget this takes: [entries, bytes].
          def spent = [created.size + changed.size + hidden.size + links.size, sizes.values.sum + hidden_bytes]

          # Several sweeps (of folders seen at different paths) as one.
          def self.merge(sweeps)
            sweeps.reduce(empty) do |all, one|
              new(**all.to_h do |key, value|
                other = one[key]
                [key, key == :sizes ? value.merge(other) : value + other]
              end)
            end
          end
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
        # and world-write bits from the rest, and special files (FIFOs,
        # sockets) the run made or put in place of a file; folders and files
        # the run made or changed are given back to their owner (u+rwx,
        # u+rw) before they are walked. +skip+: the mount points.
        def sweep(skip:, entries:, bytes:)
          swept = @tree.sweep(@root, skip:, entries:, bytes:)
          Sweep.new(**left(swept.left), deleted: deleted(swept.gone, skip),
                                        removed: swept.removed.map { |entry| [entry.path, entry.reason] },
                                        removed_count: swept.removed_count, too_deep: swept.too_deep,
                                        stripped: swept.stripped, unreadable: swept.unreadable)
        end

        private

        # The visible files gone, but for those under a mount point: a
        # tree's mount bound over a folder of the folder's own hides its
        # files for the run, which leaves them where they were.
        def deleted(gone, skip)
          gone.reject do |path|
            self.class.hidden?(path) || skip.any? { |inside| path == inside || path.start_with?("#{inside}/") }
          end
        end

        # created, changed, sizes, links and hidden of the entries left.
        def left(entries)
          files, others = entries.partition { |entry| entry.kind == :file }
          visible, hidden = files.partition { |entry| !self.class.hidden?(entry.path) }
          { **split(visible), links: visible_links(others), hidden: hidden.map { |entry| [entry.path, entry.size] } }
        end

        # created, changed and sizes of the visible files.
        def split(entries)
          created, changed = entries.partition(&:created?)
          { created: created.map(&:path).sort, changed: changed.map(&:path).sort,
            sizes: entries.to_h { |entry| [entry.path, entry.size] } }
        end

        def visible_links(entries)
          entries.filter_map { |entry| entry.path if entry.kind == :link && !self.class.hidden?(entry.path) }
        end
      end
    end
  end
end
