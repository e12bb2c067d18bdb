# frozen_string_literal: true

module RubyLLM
  class FileStore
    class Memory < FileStore
      # Read-only views and moves of a Memory store. Included by the store.
      module Moves # :nodoc:
        # Whether the store refuses every change (made with read_only: true,
        # or by #read_only_view).
        def read_only? = @read_only

        # A read-only store over the same files: it sees what this store
        # writes, and changes nothing.
        def read_only_view
          clone(freeze: false).become_read_only
        end

        # Whether this store has an owner and the file at +path+ is the
        # shared one (see FileStore#shared_file?).
        def shared_file?(path)
          return false unless @owner_key

          owners = with_lock { @entries[FileStore.path(path)] }
          !owners.nil? && !owners.key?(@owner_key)
        end

        protected

        # Makes this clone refuse changes, with its own reads and texts.
        def become_read_only
          @read_only = true
          forget_file_store_state
          self
        end

        private

        # FileStore#move's step (see CopyMove): each entry put at its new
        # path, the bytes not copied.
        def move_entries(_path, _new_path, moves)
          moved = moves.map { |move| move_entry(move[:file], move[:to], move[:content_type]) }
          @listings.clear
          moved
        end

        def move_entry(source, target, content_type)
          owners = @entries[source.path]
          entry = owners.delete(@owner_key)
          @entries.delete(source.path) if owners.empty?
          old = entry.file
          file = StoredFile.new(path: target, byte_size: old.byte_size, content_type:, digest: old.digest,
                                updated_at: old.updated_at)
          (@entries[target] ||= {})[@owner_key] = Entry.new(entry.bytes, file)
          file
        end
      end
    end
  end
end
