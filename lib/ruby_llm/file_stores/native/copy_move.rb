# frozen_string_literal: true

require 'tempfile'

module RubyLLM
  module FileStores
    module Native
      # FileStore#move, the one move of every store: the checks, the lock,
      # the owner rule, the content type of a moved file and the read
      # digests are here; a store gives only the step that moves its files
      # (+move_entries+). This default step, for a store that has only the
      # five methods, copies each file (read, then write at its new path),
      # then deletes the originals; a copy that fails takes the copies made
      # before it away again, so the source stays as it was. NativeDir
      # renames on disk, Memory moves its entries, Active Storage updates
      # its rows. Included by StoreMethods.
      module CopyMove
        # Moves the file at +path+, or the folder with everything in it, to
        # +new_path+ (missing folders are made). Returns the moved StoredFile,
        # or for a folder the moved files sorted by path. Raises
        # RubyLLM::FileNotFoundError when nothing is at +path+,
        # RubyLLM::FileExistsError when something is at +new_path+ (never
        # overwritten), RubyLLM::FileStore::ReadOnlyError on a read-only
        # store, ArgumentError for a bad path or a folder moved into itself.
        # A store for an owner moves only that owner's files: a shared one
        # is refused with ArgumentError, as delete refuses it.
        def move(path, new_path)
          path, new_path = CopyMove.paths(path, new_path)
          with_lock do
            file = self[path]
            sources = file ? [file] : list(path)
            raise RubyLLM::FileNotFoundError, "#{path} does not exist" if sources.empty?

            moves = CopyMove.plan(self, sources, path, new_path)
            moved = move_entries(path, new_path, moves)
            CopyMove.move_reads(self, sources.map(&:path), moves.map { |move| move[:to] })
            file ? moved.first : moved.sort_by(&:path)
          end
        end

        # Whether this store has an owner and the file at +path+ is not
        # theirs but shared (without an owner): it may neither delete nor
        # move it. False for a store without owners.
        def shared_file?(_path)
          false
        end

        # What a move does, checked before anything moves: refuses it when
        # something is at +new_path+ (never overwritten), a file is on the
        # way to it, or one of +sources+ is shared and the store has an
        # owner; else each source with its new path and the content type it
        # has there, as { file:, to:, content_type: }.
        def self.plan(store, sources, path, new_path)
          raise RubyLLM::FileExistsError, new_path if store[new_path] || !store.list(new_path).empty?

          check_way(store, new_path)
          shared = sources.find { |source| store.shared_file?(source.path) }
          raise ArgumentError, RubyLLM::FileStore.shared_file_message(shared.path) if shared

          sources.map do |source|
            to = new_path_of(source.path, path, new_path)
            { file: source, to:, content_type: moved_content_type(source.content_type, source.path, to) }
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
        # to +new_path+, the one rule of every store: the new name's type
        # where the old name gave the type (or both are text), and the new
        # name gives one; else the type it had. (A folder on disk keeps no
        # type: NativeDir names it from the name and the bytes, as always.)
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

        # The step of a move that moves the files of +moves+ (see plan) from
        # +path+ to +new_path+, under the store's lock, once every check
        # passed; returns the moved StoredFiles in the order of +moves+. This
        # default copies, then deletes the originals.
        def move_entries(_path, _new_path, moves)
          moved = copy_all(moves)
          CopyMove::Originals.delete(self, moves.map { |move| move[:file] }, self, moved)
          moved
        end

        # Writes a copy of each file of +moves+ at its new path. When one
        # fails, the copies written are deleted, each as far as it goes, and
        # the error that stopped the move is raised.
        def copy_all(moves)
          moves.each_with_object([]) do |move, copies|
            copies << CopyMove.copy_file(self, move[:file], self, move[:to], content_type: move[:content_type])
          rescue StandardError
            copies.each { |copy| delete(copy.path) rescue nil } # rubocop:disable Style/RescueModifier
            raise
          end
        end
      end
    end
  end
end
