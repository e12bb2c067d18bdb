# frozen_string_literal: true

module RubyLLM
  class FileStore
    class CodeExecution
      # How a run lays out its folder: every run is over a tree of folders,
      # each a store's, decided store by store. A store that is not a tree
      # (FileStore::Mounts) is a tree of one: a NativeDir one folder in
      # place, a Memory or Active Storage store one staged folder.
      #
      # - The default store works in place when it is a folder (local_root):
      #   the code runs in it, under its lock, a writable one's changes
      #   recorded in its history. Else it is staged: the run's folder is an
      #   empty one with the files named in +files+ copied in, what the code
      #   created or changed saved back through the store when the run ends;
      #   a read-only store's copy is bound read-only (folder_read_only?).
      # - A mounted folder store is bound at its path: read-only when the
      #   store is (never copied, never written back), read-write when not,
      #   under the store's lock for the run, swept for what the code
      #   changed like the default folder.
      # - A mount whose files are not on disk (Memory, Active Storage) is
      #   staged: the files named in +files+ under it are copied into a
      #   folder seen at its path, and what the code wrote there is saved
      #   back through the tree when the run ends.
      #
      # A folder store mounted with another mount inside it ('docs' around
      # 'docs/api') is staged, as the inner mount point would have to be
      # made in the outer store's folder.
      #
      # A read-only default folder gets no mount point: the sandbox lays it
      # out around the mounts (ReadOnlyRoot), or, when it has too many
      # entries for that, it is staged.
      #
      # Without a sandbox nothing can be bound: the default store works in
      # place only when it is a writable folder, and every other store is
      # staged (a read-only one too: what the code writes in its copy is
      # refused when saved back). A link to a folder would let the code
      # write into a read-only one.
      class Layout # :nodoc:
        # A store of the tree: +name+ its mount name ('' for the default
        # store), +kind+ :folder (in place, writable), :read_only (a folder
        # bound read-only) or :staged.
        Part = Struct.new(:name, :store, :kind, keyword_init: true) do
          def root = store.local_root
          def default? = name.empty?

          # +path+ in the store as a path of the tree.
          def full(path) = default? ? path : "#{name}/#{path}"

          # Whether +path+ (a full path of the tree) is in this part's
          # subtree, mounts inside it included.
          def covers?(path) = default? || path == name || path.start_with?("#{name}/")
        end

        attr_reader :default, :mounts

        # The layout of a run over +tree+ (a FileStore::Mounts, or any other
        # store as a tree of one), +sandboxed+ or not; +inner+: the runner's
        # own mounts (paths in the folder).
        def initialize(tree, sandboxed:, inner: [])
          own, mounted = tree.is_a?(FileStore::Mounts) ? [tree.default_store, tree.mounts] : [tree, {}]
          names = mounted.keys
          @default = Part.new(name: '', store: own, kind: default_kind(own, sandboxed, inner + names))
          @read_only_default = sandboxed && FileStore::Mounts::Locks.read_only?(own)
          @mounts = mounted.map do |name, store|
            # A folder with a mount inside it is staged: its mount point
            # would be made in the folder's own store.
            holds_mount = names.any? { |other| other.start_with?("#{name}/") }
            Part.new(name:, store:, kind: holds_mount ? :staged : mount_kind(store, sandboxed))
          end
        end

        def in_place? = @default.kind != :staged

        # Whether the run's folder is bound read-only: a read-only store's
        # own in place, or its staged copy, so the code learns at its first
        # write that it cannot write (sandboxed: else nothing is bound, and
        # what the code writes is refused when saved back).
        def folder_read_only? = @read_only_default

        # Whether the run's folder is a read-only store's own, where no
        # mount point is made: the sandbox lays it out around its mounts
        # (ReadOnlyRoot).
        def read_only_root? = @read_only_default && in_place?

        # Whether any store's files are copied in, so that +files+ matters.
        def staged? = parts.any? { |part| part.kind == :staged }

        def parts = [@default, *@mounts]

        def of_kind(kind) = @mounts.select { |part| part.kind == kind }

        # The part that holds +path+ (a full path): the longest mount name
        # that is a folder on its way, else the default store.
        def part_for(path)
          @mounts.select { |part| part.covers?(path) }.max_by { |part| part.name.length } || @default
        end

        # Of +files+ (StoredFiles of the tree), those to copy in: the ones
        # held by a staged store.
        def to_copy(files) = files.select { |file| part_for(file.path).kind == :staged }

        # The versions of the staged stores' files (Staging.version), by
        # full path, for the save to compare with: the folders bound in
        # place are not listed for a run, and what a mount hides of the
        # store around it is left out, as the tree's own listing does.
        def staged_versions
          parts.select { |part| part.kind == :staged }.each_with_object({}) do |part, versions|
            part.store.list.each do |file|
              full = part.full(file.path)
              versions[full] = Staging.version(file) if part_for(full).equal?(part)
            end
          end
        end

        # The stores whose folders the code changes in place, in the tree's
        # order, for their locks to be held through the run: one per folder
        # (two stores of one folder share its lock, a flock another open of
        # it would wait for, for ever).
        def locked_stores
          stores = [(@default.store if @default.kind == :folder), *of_kind(:folder).map(&:store)].compact
          stores.uniq { |store| folder_of(store) }
        end

        # What the mounts bound at their paths are: [mount name, folder on
        # disk, writable], for the staged ones a folder in +scratch+ (when
        # the run's folder is the default store's, or its staged copy bound
        # read-only, and not inside another staged one, whose folder holds
        # it; else they are in the run's folder already).
        def binds(scratch)
          @mounts.filter_map do |part|
            case part.kind
            when :read_only then [part.name, part.root, false]
            when :folder then [part.name, part.root, true]
            else [part.name, File.join(scratch, part.name), true] if bound_from_scratch?(part)
            end
          end
        end

        # The mount names bound read-only.
        def read_only_names = of_kind(:read_only).map(&:name)

        # The mount names whose files the model names in +files+.
        def staged_names = of_kind(:staged).map(&:name)

        private

        def folder_of(store)
          File.realpath(store.local_root)
        rescue SystemCallError
          store.local_root
        end

        def bound_from_scratch?(part) = (in_place? || folder_read_only?) && !inside_staged?(part)

        def inside_staged?(part)
          of_kind(:staged).any? { |other| part.name.start_with?("#{other.name}/") }
        end

        # A read-only folder with more entries than its mounts can be bound
        # beside (ReadOnlyRoot) is staged too.
        def default_kind(store, sandboxed, mounted)
          return :staged if store.local_root.nil?
          return :staged if store.read_only? && (!sandboxed || !ReadOnlyRoot.fits?(store.local_root, mounted))

          :folder
        end

        def mount_kind(store, sandboxed)
          return :staged if store.local_root.nil? || !sandboxed

          FileStore::Mounts::Locks.read_only?(store) ? :read_only : :folder
        end
      end
    end
  end
end
