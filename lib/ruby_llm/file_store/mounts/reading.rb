# frozen_string_literal: true

module RubyLLM
  class FileStore
    class Mounts < FileStore
      # Reading a file of the tree: from the store that holds it, in the way
      # that store reads (a NativeDir pages from disk, Active Storage streams
      # its blob), never through a whole copy the tree makes. Included by
      # Mounts.
      module Reading # :nodoc:
        # The bytes of the file at +path+, read by the store that holds it.
        def read(path) = routed_file(path) { |store, inner| store.read(inner) }

        # Streams from the store that holds the file, so a staged run over a
        # big file in a mounted Active Storage store copies it in chunks.
        def each_chunk(path, &block)
          return enum_for(:each_chunk, path) unless block

          routed_file(path) { |store, inner| store.each_chunk(inner, &block) }
        end

        # A window of the file's lines, read as the store that holds it reads them. See
        # RubyLLM::FileStore#read_lines.
        def read_lines(path, offset: 1, limit: nil, max_chars: nil)
          routed_file(path) { |store, inner| store.read_lines(inner, offset:, limit:, max_chars:) }
        end

        private

        # Yields the store holding the file at +path+ and its path there; a
        # mount point is a folder, not a file.
        def routed_file(path)
          path = FileStore.path(path)
          raise RubyLLM::FileNotFoundError, "#{path} does not exist" if @table.mount_folder?(path)

          routed(path) { |entry, inner| yield entry.store, inner }
        end
      end
    end
  end
end
