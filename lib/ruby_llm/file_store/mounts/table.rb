# frozen_string_literal: true

require 'pathname'

module RubyLLM
  class FileStore
    class Mounts < FileStore
      # The mount names of a RubyLLM::FileStore::Mounts and their stores:
      # which store a path goes to (the longest mount name wins), which
      # paths a store's own files are hidden at (under a longer mount, or
      # where a mount point is).
      class Table # :nodoc:
        # One store of the tree: +name+ is the mount name ('' for the default
        # store), +prefix+ what its paths get in front ('' or "name/").
        Entry = Struct.new(:name, :prefix, :store, keyword_init: true) do
          def default? = name.empty?

          # The full path of +inner+, a path of this store.
          def full(inner) = "#{prefix}#{inner}"

          # The path in this store of +full+, a path under its prefix.
          def inner(full) = full.delete_prefix(prefix)
        end

        attr_reader :default, :mounts, :entries

        # +default+ is a store; +mounts+ a Hash of mount name => a store,
        # :memory, or a folder path. Raises ArgumentError for a name that is
        # not a store path, a hidden name, a name given twice, or a value that
        # is not a store.
        def initialize(default, mounts)
          unless mounts.is_a?(Hash)
            raise ArgumentError,
                  "mounts must be a Hash of mount name => store, not #{mounts.inspect}"
          end

          @default = Entry.new(name: '', prefix: '', store: Table.store_for(default, 'the default store')).freeze
          @mounts = mounts.map { |name, store| mount(name, store) }.sort_by!(&:name).freeze
          @entries = [@default, *@mounts].freeze
          refuse_twice
          @longest_first = @mounts.sort_by { |entry| -entry.name.size }.freeze
          freeze
        end

        # The store for a value of a mount or the default: a store as it is,
        # :memory a new Memory store, a folder path a NativeDir.
        def self.store_for(value, what)
          case value
          when RubyLLM::FileStore then value
          when :memory then FileStore::Memory.new
          when String, Pathname then NativeDir.new(RubyLLM::FileStore.folder_argument(value))
          else
            raise ArgumentError, "#{what} must be a RubyLLM::FileStore, :memory or a folder path, not #{value.inspect}"
          end
        end

        # +name+ (a String or Symbol) as a mount name: a store path, no part
        # of it hidden. Raises ArgumentError saying what a name looks like.
        def self.check_name(name)
          name = name.to_s
          checked = begin
            FileStore.path(name)
          rescue ArgumentError => e
            raise ArgumentError, "mount name #{name.inspect} is not a store path (#{e.message}): use a name like " \
                                 '"handbook" or "docs/api"'
          end
          return checked unless checked.split('/').any? { |part| part.start_with?('.') }

          raise ArgumentError, "mount name #{name.inspect} is hidden (a name starting with a dot): mount names are " \
                               'store paths, like "handbook" or "docs/api"'
        end

        # The Entry whose store holds the file at +path+ (a normalised path).
        def entry_for(path)
          @longest_first.find { |entry| path.start_with?(entry.prefix) } || @default
        end

        # The Entry whose store holds the folder +folder+ ('' the root): the
        # mount when +folder+ is its mount point or inside it.
        def entry_for_folder(folder)
          @longest_first.find { |entry| folder == entry.name || folder.start_with?(entry.prefix) } || @default
        end

        # Whether +path+ is a mount point or a folder on the way to one, which
        # no file can be.
        def mount_folder?(path)
          prefix = "#{path}/"
          @mounts.any? { |entry| entry.name == path || entry.name.start_with?(prefix) }
        end

        # Whether the file of +entry+'s store at +full+ (a full path) is seen
        # in the tree: not under a longer mount, not where a mount's folder is.
        def visible?(entry, full)
          entry_for(full).equal?(entry) && !mount_folder?(full)
        end

        # The names of the mounts inside +entry+'s part of the tree (every
        # mount, for the default store), whose files hide the store's own at
        # and under their names: what visible? asks of a path, as the search
        # engine asks it (Native::SearchReport.merge).
        def hiding(entry)
          inside = entry.default? ? @mounts : @mounts.select { |mount| mount.name.start_with?(entry.prefix) }
          inside.map(&:name)
        end

        # The mounts strictly inside +folder+ ('' the root).
        def mounts_inside(folder)
          return @mounts if folder.empty?

          prefix = "#{folder}/"
          @mounts.select { |entry| entry.name.start_with?(prefix) }
        end

        # [entry, folder in its store (nil: all its files)] for every store
        # with files in +folder+ ('' the root): the store holding the folder,
        # then the mounts inside it, in lock order.
        def sources_for(folder)
          owner = entry_for_folder(folder)
          inner = owner.default? ? folder : folder.delete_prefix(owner.name).delete_prefix('/')
          [[owner, inner.empty? ? nil : inner]] + (mounts_inside(folder) - [owner]).map { |entry| [entry, nil] }
        end

        private

        # Refuses a mount name given twice. Two NativeDir objects on one
        # folder may both be in a tree: they share the folder's lock, and
        # Locks takes it once.
        def refuse_twice
          duplicate = @mounts.map(&:name).tally.find { |_, count| count > 1 }
          raise ArgumentError, "mount #{duplicate.first} is given twice" if duplicate
        end

        def mount(name, store)
          name = Table.check_name(name)
          Entry.new(name:, prefix: "#{name}/", store: Table.store_for(store, "mount #{name}")).freeze
        end
      end
    end
  end
end
