# frozen_string_literal: true

require_relative 'native_dir/streaming'

module RubyLLM
  # A folder on disk as a file store, with its work done in Rust.
  #
  #   store = RubyLLM::NativeDir.new('tmp/work')
  #   store.write('brief.md', "# Brief\n")
  #   store.list  # => [#<RubyLLM::StoredFile path: "brief.md", byte_size: 8, content_type: "text/markdown">]
  #
  # - Creates its folder when it is missing.
  # - Leaves out hidden files and folders (names starting with a dot), and
  #   refuses paths that name one.
  # - Never follows symbolic links: a link in the folder is not listed, read,
  #   written through or deleted through.
  # - Writes atomically (a temporary file, synced, then renamed), so a reader
  #   or a crash sees the old bytes or the new, never a torn file.
  # - Detects content types from file names, and from file signatures when a
  #   name does not tell; the content_type: given to write is not kept, since
  #   a folder has nowhere to keep it.
  # - Leaves out names no store path can hold (not UTF-8, control
  #   characters, backslashes) and folders deeper than a store path reaches;
  #   #listing names them.
  # - If its folder is removed while it is open, lists nothing until the
  #   folder is back, and the next write makes the folder again.
  # - Caches sha256 digests by file fingerprint (device, inode, size, mtime,
  #   ctime).
  # - Locks its folder across processes (flock) and threads; with_lock is
  #   reentrant, and every write and delete takes the lock.
  #
  # RubyLLM::FileStore::Directory is the same class.
  class NativeDir < FileStore
    Core = FileStores::Native::DirCore
    private_constant :Core
    include Streaming

    # Opens the store in +root+ (created when missing). +max_bytes+ caps the
    # total size of its files; a write past it raises RubyLLM::FileStoreFullError.
    # With +read_only+, every change (write, delete, delete_folder, move, an
    # edit) raises RubyLLM::FileStore::ReadOnlyError, and run_code binds the
    # folder read-only. With +history+, a folder outside +root+ (or
    # { path:, keep:, keep_for: }), every version of every file is kept
    # there (see RubyLLM::FileStore#versions).
    def initialize(root, max_bytes: nil, read_only: false, history: nil)
      super()
      @read_only = FileStore.read_only_option(read_only)
      root = root.to_path if root.respond_to?(:to_path)
      raise ArgumentError, "root must be a folder path String, not #{root.class}" unless root.is_a?(String)

      @core = Core.open(File.expand_path(root), FileStore.max_bytes_option(max_bytes))
      use_history(FileStores::Native::History.dir_log(history, @core.root))
      @text_paths = {}
      @text_paths_lock = Mutex.new
    end

    # The absolute path of the folder.
    def local_root
      @core.root
    end

    # The bytes the folder holds, and the cap on them (or nil): every file
    # counts, hidden ones and names the store leaves out too, since all take
    # the disk the cap bounds (what run_code leaves in .cache, say).
    def total_size = @core.total_size

    # The cap on the folder's bytes given to new, or nil.
    def max_bytes = @core.max_bytes

    # Whether the store was made with read_only: true.
    def read_only? = @read_only

    # The files inside +folder+, sorted by path (hidden ones and names no store path can be left out).
    def list(folder = nil)
      listing(folder).files
    end

    # The files inside +folder+, and the paths the folder holds that the
    # store left out: see RubyLLM::FileStore::Listing.
    def listing(folder = nil)
      @core.list(FileStore.folder(folder))
    end

    # The file at +path+, or nil (a hidden path, a link or a folder is none). See RubyLLM::FileStore#[].
    def [](path)
      @core.stat(FileStore.path(path))
    end

    # The file's bytes, read without following a link; RubyLLM::FileNotFoundError when there is none.
    def read(path)
      @core.read(FileStore.path(path))
    end

    # A window of the text file at +path+, read in chunks in Rust (UTF-16
    # transcoded as it is read): only the lines shown are kept, the rest
    # counted and hashed, so a file of any size pages in a few megabytes.
    # See RubyLLM::FileStore#read_lines.
    def read_lines(path, offset: 1, limit: nil, max_chars: nil)
      FileStore::LineWindow.check_arguments(offset, limit, max_chars)
      @core.read_lines(FileStore.path(path), offset:, limit:, max_chars:)
    end

    # Writes +content+, a String or an IO. An IO (a File, a StringIO, a
    # pipe) is read from its start, 1 MB at a time, each chunk written and
    # hashed as it comes, so memory does not grow with its size; an IO that
    # raises, or a chunk past max_bytes, leaves the old file as it was.
    def write(path, content, content_type: nil) # rubocop:disable Lint/UnusedMethodArgument
      path = FileStore.path(path)
      return write_chunks(path, content) if FileStores::Native::IoContent.chunked?(content)

      bytes = FileStores::Native::IoContent.bytes(content)
      locking { @core.write(path, bytes, lock_owner) }
    end

    # Deletes the file at +path+ under the folder's lock, never through a link; returns it, or nil.
    def delete(path)
      path = FileStore.path(path)
      locking { @core.delete(path, lock_owner) }
    end

    # Deletes every file in +folder+, walking it without following links; returns the deleted files.
    def delete_folder(folder)
      folder = FileStore.path(folder)
      locking { @core.delete_folder(folder, lock_owner) }
    end

    # Runs the block holding the folder's lock, which other processes on the
    # machine honour too. Reentrant for the fiber that holds it. Under a
    # Fiber scheduler the wait sleeps through the scheduler, so the fiber
    # holding the lock (on the same thread, perhaps) runs on and frees it.
    def with_lock
      raise ArgumentError, 'with_lock needs a block' unless block_given?

      owner = lock_owner
      fiber_scheduled? ? wait_for_lock(owner) : @core.lock(owner)
      begin
        yield
      ensure
        @core.unlock(owner)
      end
    end

    # The folder's real path: every NativeDir on the folder, in every
    # process, shares its flock, so they sort their locks alike.
    def lock_key = "RubyLLM::NativeDir:#{local_root}"

    # The folder, for the console.
    def inspect
      "#<#{self.class.name} #{local_root}>"
    end

    # Keeps the text a converter made of +file+, and remembers its path so
    # that search_files finds it without walking the folder for it.
    def cache_text(file, text)
      super
      text_paths_lock.synchronize { text_paths[file.path] = true }
      text
    end

    # Searches on disk: the engine walks the folder, and is handed the text
    # kept for files whose format has none of its own (see
    # RubyLLM::FileStore#search_report).
    def search_report(request)
      @core.search(request, extracted_texts(request))
    end

    private

    # FileStore#move's step (see CopyMove): one rename that never replaces
    # (renameat2 RENAME_NOREPLACE; link and unlink where the system lacks
    # it), never following a link, of the file or the whole folder.
    def move_entries(path, new_path, _moves)
      moved = locking { @core.rename(path, new_path, lock_owner) }
      moved.is_a?(Array) ? moved : [moved]
    end

    def lock_owner = Fiber.current.object_id

    # A version of a write given a String keeps those bytes, checked by
    # digest, without reading the file back (see History::Recording).
    def history_keep_bytes(log, path, file, written = nil)
      return super unless FileStores::Native::History::Recording.same_bytes?(written, file)

      log.hold(file.digest) { |sink| sink << written }
      nil
    end

    # Runs a native call that takes the lock itself: as it is on a thread,
    # where its wait blocks only this thread; inside with_lock under a
    # Fiber scheduler, so that it finds the lock held and never waits.
    def locking(&)
      fiber_scheduled? ? with_lock(&) : yield
    end

    # A non-blocking fiber under a scheduler: a native wait would block the
    # whole thread, with the lock's holder perhaps a fiber on it.
    def fiber_scheduled?
      !Fiber.current.blocking? && !Fiber.scheduler.nil?
    end

    # Takes the lock without blocking the thread: tries, and sleeps (which
    # the scheduler turns into running the other fibers) until it is free.
    def wait_for_lock(owner)
      pause = 0.001
      until @core.try_lock(owner)
        sleep(pause)
        pause = [pause * 2, 0.02].min
      end
    end

    # Path => text for the files whose converted text this store keeps, for
    # the search +request+. With the in-memory text cache, the paths come
    # from what cache_text was told, so a search needs no walk of its own; a
    # subclass that keeps texts elsewhere is asked for each file the folder
    # has without text.
    def extracted_texts(request)
      paths = if method(:cached_text).owner == FileStores::Native::StoreMethods
                text_paths_lock.synchronize { text_paths.keys }
              else
                @core.files_needing_text(*request.values_at(:folder, :glob, :glob_lead))
              end
      paths.each_with_object({}) do |path, texts|
        file = self[path]
        text = file && cached_text(file)
        texts[path] = text.b if text
      end
    end

    def text_paths = (@text_paths ||= {})
    def text_paths_lock = (@text_paths_lock ||= Mutex.new)
  end
end
