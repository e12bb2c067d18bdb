# frozen_string_literal: true

require 'tempfile'

module RubyLLM
  module FileStores
    module Native
      # FileStore#move for a store that has only the five methods: under the
      # store's lock, copies each file (read, then write at its new path),
      # then deletes the originals. A copy that fails takes the copies made
      # before it away again, so the source stays as it was. The read
      # digests move with the files. Stores that can rename natively
      # (NativeDir, Memory, Active Storage) override #move. Included by
      # StoreMethods.
      module CopyMove
        # Whether the store refuses every change with
        # RubyLLM::FileStore::ReadOnlyError. False unless made with
        # read_only: true.
        def read_only?
          false
        end

        # Moves the file at +path+, or the folder with everything in it, to
        # +new_path+ (missing folders are made). Returns the moved StoredFile,
        # or for a folder the moved files sorted by path. Raises
        # RubyLLM::FileNotFoundError when nothing is at +path+,
        # RubyLLM::FileExistsError when something is at +new_path+ (never
        # overwritten), RubyLLM::FileStore::ReadOnlyError on a read-only
        # store, ArgumentError for a bad path or a folder moved into itself.
        def move(path, new_path)
          path, new_path = CopyMove.paths(path, new_path)
          refuse_if_read_only(path)

          with_lock do
            file = self[path]
            sources = file ? [file] : list(path)
            raise RubyLLM::FileNotFoundError, "#{path} does not exist" if sources.empty?
            raise RubyLLM::FileExistsError, new_path if self[new_path] || !list(new_path).empty?

            CopyMove.check_way(self, new_path)

            moved = copy_all(sources, path, new_path)
            CopyMove::Originals.delete(self, sources, self, moved)
            CopyMove.move_reads(self, sources.map(&:path), moved.map(&:path))
            file ? moved.first : moved.sort_by(&:path)
          end
        end

        # +path+ and +new_path+ checked by the store's path rules; refuses the
        # same path twice and a folder moved inside itself.
        def self.paths(path, new_path)
          path = RubyLLM::FileStore.path(path)
          new_path = RubyLLM::FileStore.path(new_path)
          raise ArgumentError, "#{path} and its new path are the same: nothing to move" if path == new_path
          if new_path.start_with?("#{path}/")
            raise ArgumentError, "#{new_path} is inside #{path}: a folder cannot move into itself"
          end

          [path, new_path]
        end

        # Refuses +new_path+ when a folder on the way to it is a file in +store+.
        def self.check_way(store, new_path)
          parts = new_path.split('/')
          (1...parts.size).each do |n|
            parent = parts.first(n).join('/')
            raise ArgumentError, "#{new_path} goes through a file as if it were a folder" if store[parent]
          end
        end

        # The path +from+ (inside +path+, or +path+ itself) has at +new_path+.
        def self.new_path_of(from, path, new_path)
          from == path ? new_path : "#{new_path}#{from.delete_prefix(path)}"
        end

        # The content type a file of +content_type+ has once moved from +path+
        # to +new_path+, for a store that cannot read the bytes for it: the
        # new name's type where the old name gave the type (or both are text),
        # and the new name gives one; else the type it had.
        def self.moved_content_type(content_type, path, new_path)
          return content_type if File.basename(path) == File.basename(new_path)

          by_old_name = Native.content_type_for(path, NUL)
          by_new_name = Native.content_type_for(new_path, NUL)
          return content_type if by_new_name == UNNAMED

          text = Native.text_content_type?(content_type) && Native.text_content_type?(by_new_name)
          content_type == by_old_name || text ? by_new_name : content_type
        end

        # A head no sniffing reads as any format: content_type_for then tells
        # by the name alone (UNNAMED when the name does not tell).
        NUL = "\0".b.freeze
        UNNAMED = 'application/octet-stream'
        private_constant :NUL, :UNNAMED

        # Files up to this size are copied through one String; bigger ones
        # through a spool on disk, so a copy does not grow with the file.
        SPOOL_OVER = 8 << 20

        # Copies +file+ (a StoredFile of +from+) to +to_path+ in the store +to+
        # (the same store or another) as +content_type+, and returns the
        # copy's StoredFile.
        def self.copy_file(from, file, to, to_path, content_type:)
          content = content_of(from, file)
          to.write(to_path, content, content_type:)
        ensure
          content.close! if content.is_a?(Tempfile)
        end

        # What a copy of +file+ in +store+ writes: its bytes in a String, or
        # over SPOOL_OVER a Tempfile (rewound; the caller close!s it) filled
        # by the store's each_chunk, so only a chunk is in memory at a time
        # and a store that writes an IO in chunks (NativeDir, Active
        # Storage) holds no more.
        def self.content_of(store, file)
          return store.read(file.path) if file.byte_size.to_i <= SPOOL_OVER

          spool = Tempfile.new('ruby_llm_file_store_copy', binmode: true)
          store.each_chunk(file.path) { |chunk| spool.write(chunk) }
          spool.flush
          spool.rewind
          spool
        rescue Exception # rubocop:disable Lint/RescueException -- the spool goes whatever stops the copy
          spool&.close!
          raise
        end

        # Moves what the model read of each of +old_paths+ to the matching
        # of +new_paths+ in +store+: the bytes did not change.
        def self.move_reads(store, old_paths, new_paths)
          old_paths.zip(new_paths).each do |from, to|
            digest = store.read_digest(from)
            store.record_read(from, nil)
            store.record_read(to, digest) if digest
          end
        end

        private

        # Raises RubyLLM::FileStore::ReadOnlyError for +path+ on a read-only
        # store: the first step of every change.
        def refuse_if_read_only(path)
          raise RubyLLM::FileStore::ReadOnlyError, RubyLLM::FileStore.path(path) if read_only?
        end

        # Writes a copy of each of +sources+ under +new_path+; when one fails,
        # deletes the copies written and raises.
        def copy_all(sources, path, new_path)
          copies = []
          sources.each do |source|
            target = CopyMove.new_path_of(source.path, path, new_path)
            copies << CopyMove.copy_file(self, source, self, target, content_type: CopyMove.moved_content_type(
              source.content_type, source.path, target
            ))
          end
          copies
        rescue StandardError
          remove_copies(copies)
          raise
        end

        # Deletes the copies a failed move made, each as far as it goes: the
        # error that stopped the move is the one to raise.
        def remove_copies(copies)
          copies.each do |copy|
            delete(copy.path)
          rescue StandardError
            nil
          end
        end
      end
    end
  end
end
