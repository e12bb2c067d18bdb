# frozen_string_literal: true

module RubyLLM
  class FileStore
    class Mounts < FileStore; end
  end
end

require_relative 'mounts/table'
require_relative 'mounts/memories'
require_relative 'mounts/reading'

module RubyLLM
  class FileStore
    # Several stores in one tree: a default store for every path, and other
    # stores mounted at folders.
    #
    #   store = RubyLLM::FileStore::Mounts.new(
    #     chat_store,                                      # every path not under a mount
    #     'handbook' => RubyLLM::NativeDir.new('docs/handbook', read_only: true),
    #     'memories' => RubyLLM::FileStore::ActiveStorage.new(user),
    #     'scratch'  => :memory
    #   )
    #   chat.with_file_store(store)
    #   chat.with_file_store(chat_store, mounts: { 'handbook' => handbook })  # the same
    #
    # - A path under "name/" goes to that mount's store with the prefix taken
    #   off; the longest mount name wins ('docs' and 'docs/api' may both be
    #   mounted); every other path goes to the default store. Mount names are
    #   store paths (no "..", no hidden names). A mount point is a folder: no
    #   file can be written at it, nor at a folder on the way to one. What the
    #   default store holds under a mount is hidden by the mount.
    # - Every StoredFile and every error message names the full path.
    # - list, listing and search_files cover every store as one tree, sorted
    #   by path; a search runs each store's own engine and merges the results
    #   with one set of caps, one deadline and one set of notes (Merge).
    # - The memory of reads (read before change) is the owning store's.
    # - with_lock takes the lock of every store that can change (a
    #   read-only store has nothing to lock), sorted by the stores' lock_key
    #   (a NativeDir's real folder, an Active Storage chat's row), not by
    #   mount name: two holders, in one tree or in two trees mounting the
    #   same stores under other names, in one process or several, can never
    #   deadlock. A write, delete or move takes only the locks of the stores
    #   it changes, in the same order.
    # - move within a store is that store's move; between stores it copies,
    #   then deletes, under both locks (Moving).
    # - delete_folder never reaches into a mount: a folder above one loses
    #   only the files of the store that holds it.
    # - Attachments and saved long results go to the default store, as the
    #   paths they are kept at are not under a mount.
    # - run_code sees every mount at its path, laid out store by store
    #   (CodeExecution::Layout): the default store in place when it is a
    #   folder, else staged; a folder mount bound at its path, read-only when
    #   its store is (never copied), read-write under its lock when not; any
    #   other mount staged (the files named in +files+ copied in, saved back
    #   through the tree). What code writes under a read-only mount is
    #   refused and named unsaved.
    class Mounts < FileStore
      include Memories
      include Reading

      # +default_store+ takes every path not under a mount; +mounts+ maps a
      # mount name to a store, :memory (a new Memory store) or a folder path
      # (a NativeDir). Raises ArgumentError for a bad mount name.
      def initialize(default_store, mounts = {})
        super()
        @table = Table.new(default_store, mounts)
      end

      # The store every path not under a mount goes to.
      def default_store = @table.default.store

      # Mount name => store, sorted by name.
      def mounts = @table.mounts.to_h { |entry| [entry.name, entry.store] }

      # The same tree with the default store for +owner+ (see
      # RubyLLM::FileStore#for_owner): the mounts stay as they are, shared.
      def for_owner(owner)
        Mounts.new(default_store.for_owner(owner), mounts)
      end

      # The owner the default store writes files for, or nil.
      def owner = default_store.owner

      # The store that holds +path+ and the path in it: [store, path].
      def store_for(path)
        entry = @table.entry_for(FileStore.path(path))
        [entry.store, entry.inner(FileStore.path(path))]
      end

      # False: the tree takes writes; each read-only store in it refuses
      # its own files.
      def read_only? = false

      # Every store's files inside +folder+, under their full paths, sorted by path.
      def list(folder = nil)
        listing(folder).files
      end

      # Every store's files in +folder+, under their full paths, sorted by
      # path, with what each left out (see RubyLLM::FileStore::Listing), and
      # the mounts inside +folder+ that have no file yet (+empty+), which no
      # file would show.
      def listing(folder = nil)
        Listings.new(@table).listing(FileStore.folder(folder))
      end

      # The file at +path+, from the store that holds it, under its full path; or nil.
      def [](path)
        path = FileStore.path(path)
        return nil if @table.mount_folder?(path)

        routed(path) { |entry, inner| FullPaths.file(entry, entry.store[inner]) }
      end

      # Writes +content+ at +path+ in the store that holds the path, and returns the StoredFile under its full
      # path.
      def write(path, content, content_type: nil)
        path = FileStore.path(path)
        refuse_mount_folder(path)
        routed(path) { |entry, inner| FullPaths.file(entry, entry.store.write(inner, content, content_type:)) }
      end

      # Deletes the file at +path+ in the store that holds it, and returns it under its full path.
      def delete(path)
        path = FileStore.path(path)
        if @table.mount_folder?(path)
          raise ArgumentError, "#{path} is a folder where a store is mounted, not a file: delete the files inside it"
        end

        routed(path) { |entry, inner| FullPaths.file(entry, entry.store.delete(inner)) }
      end

      # Deletes the files in +folder+ of the store that holds it, and returns
      # them: at a mount point, every file of the mounted store. It never
      # reaches into a mount from above: the files of mounts inside the
      # folder (every mount, for the root) stay.
      def delete_folder(folder)
        folder = FileStore.folder(folder)
        entry = @table.entry_for_folder(folder)
        inner = folder == entry.name ? '' : entry.inner(folder)
        raise RubyLLM::FileStore::ReadOnlyError, folder if Locks.read_only?(entry.store)

        FullPaths.naming(entry, inner) do
          deleted = if @table.mounts_inside(folder).empty? && !inner.empty?
                      entry.store.delete_folder(inner)
                    else
                      delete_visible(entry, inner)
                    end
          deleted.map { |file| FullPaths.file(entry, file) }
        end
      end

      # Moves the file or folder at +path+ to +new_path+ (see Moving): the
      # moved StoredFile, or an Array of them for a folder.
      def move(path, new_path)
        Moving.new(@table).move(FileStore.path(path), FileStore.path(new_path))
      end

      # Runs the block holding the lock of every store in the tree that can
      # change, sorted by their lock_key (see Locks), the order every tree
      # takes them in. Reentrant as the stores' locks are.
      def with_lock(&block)
        raise ArgumentError, 'with_lock needs a block' unless block

        Locks.hold(@table.entries.map(&:store), &block)
      end

      # Searches every store with its own engine and merges what they found
      # (see Merge): one set of caps, one deadline, one set of notes.
      def search_report(request)
        Merge.new(@table, request).run
      end

      # Nil: the tree is not one folder. run_code lays a run out store by
      # store (CodeExecution::Layout), from default_store and mounts.
      def local_root = nil

      # The default store and the mounts, for the console.
      def inspect
        mounted = @table.mounts.map { |entry| "#{entry.name}: #{entry.store.inspect}" }
        "#<#{self.class.name} #{default_store.inspect}#{mounted.map { |m| ", #{m}" }.join}>"
      end

      private

      # Yields the Entry holding +path+ and the path in its store, with the
      # errors it raises naming the full path.
      def routed(path)
        entry = @table.entry_for(path)
        inner = entry.inner(path)
        FullPaths.naming(entry, inner) { yield entry, inner }
      end

      def refuse_mount_folder(path)
        return unless @table.mount_folder?(path)

        raise ArgumentError, "#{path} is a folder where a store is mounted, not a file: write a file inside it, or " \
                             'choose another name.'
      end

      # Deletes, under its store's lock, the files of +entry+'s store in
      # +inner+ ('' every file) that the tree shows there.
      def delete_visible(entry, inner)
        entry.store.with_lock do
          files = entry.store.list(inner.empty? ? nil : inner)
          files.select { |file| @table.visible?(entry, entry.full(file.path)) }.filter_map do |file|
            entry.store.delete(file.path)
          end
        end
      end
    end
  end
end

require_relative 'mounts/full_paths'
require_relative 'mounts/locks'
require_relative 'mounts/listings'
require_relative 'mounts/moving'
require_relative 'mounts/merge'
