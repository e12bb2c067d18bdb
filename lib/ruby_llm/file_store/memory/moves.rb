# frozen_string_literal: true

module RubyLLM
  class FileStore
    class Memory < FileStore
      # Read-only views and moves of a Memory store. Included by the store.
      module Moves
        # Whether the store refuses every change (made with read_only: true,
        # or by #read_only_view).
        def read_only? = @read_only

        # A read-only store over the same files: it sees what this store
        # writes, and changes nothing.
        def read_only_view
          clone(freeze: false).become_read_only
        end

        # Moves the file or folder at +path+ to +new_path+ under the store's
        # lock, the bytes not copied; see FileStore#move. A store for an
        # owner moves only that owner's files (a shared one is refused, as
        # delete refuses it).
        def move(path, new_path)
          path, new_path = FileStores::Native::CopyMove.paths(path, new_path)
          refuse_if_read_only(path)
          with_lock do
            file = visible(@entries[path])&.file
            sources = file ? [file] : list(path)
            raise FileNotFoundError, "#{path} does not exist" if sources.empty?

            targets = move_targets(sources, path, new_path)
            moved = sources.zip(targets).map { |source, target| move_entry(source, target) }
            @listings.clear
            FileStores::Native::CopyMove.move_reads(self, sources.map(&:path), targets)
            file ? moved.first : moved
          end
        end

        protected

        # Makes this clone refuse changes, with its own reads and texts.
        def become_read_only
          @read_only = true
          forget_file_store_state
          self
        end

        private

        # The new paths of +sources+, once each is checked: nothing at
        # +new_path+, no file on the way, and each source this store's own.
        def move_targets(sources, path, new_path)
          raise FileExistsError, new_path if visible(@entries[new_path]) || folder?(new_path)

          sources.map do |source|
            if @owner_key && !@entries[source.path].key?(@owner_key)
              raise ArgumentError, FileStore.shared_file_message(source.path)
            end

            target = FileStores::Native::CopyMove.new_path_of(source.path, path, new_path)
            check_place(target)
            target
          end
        end

        # Moves this store's entry of +source+ to +target+: the same bytes,
        # the content type of the new name where it came from the old one.
        def move_entry(source, target)
          owners = @entries[source.path]
          entry = owners.delete(@owner_key)
          @entries.delete(source.path) if owners.empty?
          old = entry.file
          derived = old.content_type == FileStores::Native.content_type_for(old.path, entry.bytes)
          content_type = derived ? FileStores::Native.content_type_for(target, entry.bytes) : old.content_type
          file = StoredFile.new(path: target, byte_size: old.byte_size, content_type:, digest: old.digest,
                                updated_at: old.updated_at)
          (@entries[target] ||= {})[@owner_key] = Entry.new(entry.bytes, file)
          file
        end
      end
    end
  end
end
