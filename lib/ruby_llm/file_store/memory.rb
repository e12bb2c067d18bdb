# frozen_string_literal: true

require 'monitor'
require_relative 'memory/moves'
require_relative 'memory/checks'

module RubyLLM
  class FileStore
    # A store that keeps its files in memory, for as long as the object lives.
    # Thread safe. Folders exist only as parts of paths, as in a folder store:
    # a file cannot be written where a folder is, nor inside a file.
    #
    #   store = RubyLLM::FileStore::Memory.new(max_bytes: 1_000_000)
    #   store.write('notes/plan.md', "# Plan\n")
    #
    # for_owner gives a view of the same files for one owner (see
    # #for_owner); the store itself sees only the files without an owner.
    class Memory < FileStore
      include Moves
      include Checks
      Entry = Struct.new(:bytes, :file)
      private_constant :Entry

      FULL = "This chat's files are full: delete or overwrite files."

      # +max_bytes+ caps the total size of the files (nil: no cap). With
      # +read_only+, every change raises RubyLLM::FileStore::ReadOnlyError
      # (fill it first, then hand the model #read_only_view). With +history+
      # (true, or { keep:, keep_for: }) every version of every file is kept
      # in memory too (see RubyLLM::FileStore#versions).
      def initialize(max_bytes: nil, read_only: false, history: false)
        super()
        use_history(FileStores::Native::History.memory_log(history))
        @read_only = FileStore.read_only_option(read_only)
        @max_bytes = FileStore.max_bytes_option(max_bytes)
        @entries = {} # path => { owner key (nil: no owner) => Entry }, shared by the owners' views
        @lock = Monitor.new # shared by the views too, since they change the same entries
        # owner key => the sorted files that owner sees, made by list and
        # emptied by every change (shared by the views): a search lists
        # 10,000 files in microseconds instead of sorting them each time.
        @listings = {}
        @owner = nil
        @owner_key = nil
      end

      attr_reader :max_bytes, :owner

      # A store over the same files that writes files for +owner+ (a record,
      # or any object with an id) and sees only theirs and the files without
      # an owner, preferring theirs when both have a path. It shares the
      # files, the lock and max_bytes with this store, and remembers its own
      # reads.
      def for_owner(owner)
        key = FileStores::Native::Owner.key(owner)
        clone(freeze: false).owner_view(owner, key)
      end

      protected

      # Makes this clone the view of +owner+: its own reads and texts, made
      # on first use.
      def owner_view(owner, key)
        @owner = owner
        @owner_key = key
        forget_file_store_state
        self
      end

      public

      # Runs the block holding the store's lock (a Monitor: reentrant, within the process).
      def with_lock
        raise ArgumentError, 'with_lock needs a block' unless block_given?

        @lock.synchronize { yield } # rubocop:disable Style/ExplicitBlockArgument -- a &block is a Proc made each call
      end

      # The lock's own name, shared by the owners' views, which share it.
      def lock_key
        "#{Memory.name}@#{@lock.object_id}"
      end

      # The files this store sees inside +folder+, sorted by path. See RubyLLM::FileStore#list.
      def list(folder = nil)
        folder = FileStore.folder(folder)
        files = with_lock { (@listings[@owner_key] ||= sorted_files.freeze).dup }
        files.select! { |file| file.path.start_with?("#{folder}/") } unless folder.empty?
        files
      end

      # The file this store sees at +path+, or nil. See RubyLLM::FileStore#[].
      def [](path)
        path = FileStore.path(path)
        with_lock { visible(@entries[path])&.file }
      end

      # A copy of the file's bytes; RubyLLM::FileNotFoundError when there is none.
      def read(path)
        path = FileStore.path(path)
        entry = with_lock { visible(@entries[path]) }
        raise FileNotFoundError, "#{path} does not exist" unless entry

        entry.bytes.dup
      end

      # Keeps +content+ (a String or an IO, read whole) at +path+ and returns its StoredFile; +content_type+
      # is kept as given, else told by the name and bytes.
      def write(path, content, content_type: nil)
        path = FileStore.path(path)
        bytes = FileStores::Native::IoContent.bytes(content).b.freeze # a copy of its own
        with_lock do
          check_place(path)
          check_room(path, bytes)
          file = StoredFile.new(path:, byte_size: bytes.bytesize,
                                content_type: content_type || FileStores::Native.content_type_for(path, bytes),
                                digest: FileStores::Native.sha256_hex(bytes), updated_at: Time.now)
          (@entries[path] ||= {})[@owner_key] = Entry.new(bytes, file)
          @listings.clear
          file
        end
      end

      # Deletes the file this store sees at +path+. A store for an owner
      # deletes only that owner's files, as it writes only theirs: the
      # shared file (without an owner) is refused with ArgumentError.
      def delete(path)
        path = FileStore.path(path)
        with_lock do
          raise ArgumentError, "#{path} is a folder, not a file; use delete_folder" if folder?(path)

          owners = @entries[path]
          next nil unless visible(owners)
          raise ArgumentError, FileStore.shared_file_message(path) if shared_file?(path)

          entry = owners.delete(@owner_key)
          @entries.delete(path) if owners.empty?
          @listings.clear
          entry.file
        end
      end

      # Deletes the files in +folder+ this store may delete: for an owner,
      # theirs (the shared ones stay).
      def delete_folder(folder)
        folder = FileStore.path(folder)
        with_lock { list(folder).filter_map { |file| delete(file.path) if @entries[file.path].key?(@owner_key) } }
      end

      # [path, text] pairs for search (text nil: none extracted yet), under
      # one lock and without copying: the bytes kept are frozen, and search
      # only reads them. Files deleted since the list are left out. It
      # downloads nothing, so it needs no stop (see the Active Storage store).
      def texts_for_search(files, stop: nil) # rubocop:disable Lint/UnusedMethodArgument
        with_lock do
          files.filter_map do |file|
            entry = visible(@entries[file.path]) or next
            next [file.path, entry.bytes] if FileStores::Native.text_content_type?(entry.file.content_type)

            [file.path, cached_text(entry.file)&.b]
          end
        end
      end

      # The total size of the files of every owner, in bytes (the history's
      # versions not counted).
      def total_size
        with_lock { @entries.sum { |_, owners| owners.sum { |_, entry| entry.bytes.bytesize } } }
      end

      private

      # An owner's view sees that owner's versions.
      def history_owner = @owner_key

      # The file at +path+ (already a valid path) for the history, under the lock.
      def history_file(path) = visible(@entries[path])&.file

      # A version shares the frozen bytes the store keeps for the file (see
      # #write: a copy of its own, never changed), instead of copying them.
      def history_keep_bytes(log, path, file, written = nil)
        entry = visible(@entries[path])
        return super unless entry&.file&.digest == file.digest

        log.share(file.digest, entry.bytes)
        nil
      end

      # The files this store sees, sorted by path (list keeps them until the next change).
      def sorted_files
        @entries.filter_map { |_, owners| visible(owners)&.file }.sort_by!(&:path)
      end

      # The entry this store sees among a path's entries: its owner's, else
      # the one without an owner.
      def visible(owners)
        return nil unless owners

        (@owner_key && owners[@owner_key]) || owners[nil]
      end
    end
  end
end
