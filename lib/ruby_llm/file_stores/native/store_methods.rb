# frozen_string_literal: true

require 'monitor'

module RubyLLM
  module FileStores
    # The native file stores gem.
    module Native
      # What every RubyLLM::FileStore has on top of the five methods a store
      # implements (list, [], read, write, delete). RubyLLM::FileStore includes
      # it, so a method that ruby_llm itself defines on FileStore wins and this
      # module only fills what is missing.
      module StoreMethods
        include AttachmentMemory
        include Conversions
        include ManyWrites
        include CopyMove
        include HistoryMethods

        def initialize(*)
          super()
          file_store_state
        end

        # The files inside +folder+ (all files when nil), sorted by path.
        def list(_folder = nil)
          raise NotImplementedError, "#{self.class} must implement list(folder = nil)"
        end

        # The StoredFile at +path+, or nil.
        def [](_path)
          raise NotImplementedError, "#{self.class} must implement [](path)"
        end

        # The bytes of the file at +path+; raises RubyLLM::FileNotFoundError.
        def read(_path)
          raise NotImplementedError, "#{self.class} must implement read(path)"
        end

        # Writes +content+ (a String or an IO) to +path+ and returns the StoredFile.
        def write(_path, _content, content_type: nil)
          raise NotImplementedError, "#{self.class} must implement write(path, content, content_type: nil)"
        end

        # Deletes the file at +path+ and returns it, or nil when there is none.
        def delete(_path)
          raise NotImplementedError, "#{self.class} must implement delete(path)"
        end

        # Whether the store refuses every change with
        # RubyLLM::FileStore::ReadOnlyError (see ReadOnlyGuard). False unless
        # made with read_only: true.
        def read_only? = false

        # The files inside +folder+ (as #list gives them) and what the store
        # left out, in a RubyLLM::FileStore::Listing. A store that keeps its
        # files where names it cannot use can appear (a folder on disk) says
        # which; this default left nothing out.
        def listing(folder = nil)
          RubyLLM::FileStore::Listing.new(files: list(folder), unnamed: [], deep: [])
        end

        # The StoredFile at +path+; raises RubyLLM::FileNotFoundError when there is none.
        def find(path)
          self[path] || raise(RubyLLM::FileNotFoundError, "#{RubyLLM::FileStore.path(path)} does not exist")
        end

        # Whether a file exists at +path+.
        def exist?(path)
          !self[path].nil?
        end

        # Deletes every file in +folder+ and returns the deleted files.
        def delete_folder(folder)
          folder = RubyLLM::FileStore.path(folder)
          with_lock { list(folder).filter_map { |file| delete(file.path) } }
        end

        # Runs the block holding the store's lock. Reentrant: the holder may
        # take it again. This default locks within the process; a store that
        # several processes share should override it.
        def with_lock(&block)
          raise ArgumentError, 'with_lock needs a block' unless block

          file_store_state.fetch(:monitor).synchronize(&block)
        end

        # A String naming the lock with_lock takes, the same for every store
        # object that takes that lock: a tree of stores (Mounts) takes
        # several locks sorted by it, so every tree, in every process, takes
        # them in one order. This default names this object's own lock; a
        # store whose lock other objects or processes share overrides it.
        def lock_key
          "#{self.class.name}@#{object_id}"
        end

        # Searches the files for +pattern+, a regular expression (see
        # RubyLLM::FileStore::Search.run for the options and the result): the
        # text of what search_report found.
        def search(pattern, path: nil, glob: nil, **options)
          search_report(RubyLLM::FileStore::Search.arguments(pattern, path:, glob:, **options)).text
        end

        # What a search for +request+ (made by
        # RubyLLM::FileStore::Search.arguments) found, as data: a
        # Native::SearchReport, whose text is the output. This default
        # searches the texts the store gives; a store that can search by
        # itself overrides it, as NativeDir does on disk, and a tree of
        # stores merges its stores' reports.
        def search_report(request) = RubyLLM::FileStore::Search.over_texts(self, request)

        # The folder holding the store's files on disk, or nil for a store
        # that keeps them elsewhere.
        def local_root
          nil
        end

        # The text a converter made of +file+ (a StoredFile), or nil.
        def cached_text(file)
          file_store_state.fetch(:texts)[text_key(file)]
        end

        # Keeps the text a converter made of +file+.
        def cache_text(file, text)
          file_store_state.fetch(:texts)[text_key(file)] = text
        end

        # The digest of what the model last read at +path+, or nil.
        def read_digest(path)
          state = file_store_state
          state.fetch(:mutex).synchronize { state.fetch(:reads)[RubyLLM::FileStore.path(path)] }
        end

        # Remembers that the model read +path+ when its digest was +digest+.
        def record_read(path, digest)
          state = file_store_state
          path = RubyLLM::FileStore.path(path)
          state.fetch(:mutex).synchronize do
            digest.nil? ? state.fetch(:reads).delete(path) : state.fetch(:reads)[path] = digest
          end
        end

        # The file's text: text files as they are (invalid UTF-8 replaced),
        # other formats through the registered converters (see
        # RubyLLM::FileStore::Converters), each version converted once.
        # Raises RubyLLM::FileNotFoundError, or ConversionError when nothing
        # reads the format.
        def text(path)
          file = find(path)
          return Native.text_from_bytes(read(file.path)) if Native.text_content_type?(file.content_type)

          converted_text(file) ||
            raise(RubyLLM::FileStore::ConversionError,
                  "#{file.path} (#{file.content_type}) has no text: no converter reads this format")
        end

        # Yields the bytes of the file at +path+ in chunks (Strings), in order,
        # and returns nil (an Enumerator without a block): the way to copy a
        # big file out of a store. This default yields #read's String, the
        # whole file at once; NativeDir reads its file and the Active Storage
        # store its blob in 1 MB chunks, each emptied when the block returns.
        def each_chunk(path, &block)
          return enum_for(:each_chunk, path) unless block

          block.call(read(path))
          nil
        end

        # A window of the text file at +path+ (a RubyLLM::FileStore::LineWindow):
        # lines +offset+ (from 1) on, +limit+ of them (nil: to the end), as
        # many as fit in +max_chars+ characters (nil: no limit), with the
        # file's line count and digest. Text as #text gives it for a text
        # file. This default reads the file's bytes and counts its lines in
        # Rust without the GVL, keeping only the lines shown; NativeDir reads
        # only as much as it shows from disk.
        def read_lines(path, offset: 1, limit: nil, max_chars: nil)
          RubyLLM::FileStore::LineWindow.check_arguments(offset, limit, max_chars)
          Native.file_line_window(read(path), { offset:, limit:, max_chars: })
        end

        private

        STATE_LOCK = Mutex.new
        private_constant :STATE_LOCK

        # The store's own state, made on first use so that a store whose
        # initialize does not call super still works.
        def file_store_state
          @file_store_state || STATE_LOCK.synchronize do
            @file_store_state ||= { monitor: Monitor.new, mutex: Mutex.new, reads: {}, texts: TextCache.new,
                                    attachments: {} }
          end
        end

        # Drops the store's state: a copy of a store (an owner's view) makes
        # its own on first use.
        def forget_file_store_state
          @file_store_state = nil
        end

        def text_key(file)
          file.digest || "#{file.path}\0#{file.byte_size}\0#{file.updated_at&.to_r}"
        end
      end
    end
  end
end
