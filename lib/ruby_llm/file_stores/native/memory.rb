# frozen_string_literal: true

module RubyLLM
  class FileStore
    # A store that keeps its files in memory, for as long as the object lives.
    # Thread safe. Folders exist only as parts of paths, as in a folder store:
    # a file cannot be written where a folder is, nor inside a file.
    #
    #   store = RubyLLM::FileStore::Memory.new(max_bytes: 1_000_000)
    #   store.write('notes/plan.md', "# Plan\n")
    class Memory < FileStore
      Entry = Struct.new(:bytes, :file)
      private_constant :Entry

      FULL = "This chat's files are full: delete or overwrite files."

      # +max_bytes+ caps the total size of the files (nil: no cap).
      def initialize(max_bytes: nil)
        super()
        if max_bytes && !(max_bytes.is_a?(Integer) && max_bytes.positive?)
          raise ArgumentError, "max_bytes must be a positive Integer or nil, not #{max_bytes.inspect}"
        end

        @max_bytes = max_bytes
        @entries = {}
      end

      attr_reader :max_bytes

      def list(folder = nil)
        folder = FileStore.folder(folder)
        files = with_lock { @entries.values.map(&:file) }
        files.select! { |file| file.path.start_with?("#{folder}/") } unless folder.empty?
        files.sort_by!(&:path)
      end

      def [](path)
        path = FileStore.path(path)
        with_lock { @entries[path]&.file }
      end

      def read(path)
        path = FileStore.path(path)
        entry = with_lock { @entries[path] }
        raise FileNotFoundError, "#{path} does not exist" unless entry

        entry.bytes.dup
      end

      def write(path, content, content_type: nil)
        path = FileStore.path(path)
        bytes = FileStores::Native.content_bytes(content).b.freeze # a copy of its own
        with_lock do
          check_place(path)
          check_room(path, bytes)
          file = StoredFile.new(path:, byte_size: bytes.bytesize,
                                content_type: content_type || FileStores::Native.content_type_for(path, bytes),
                                digest: FileStores::Native.sha256_hex(bytes), updated_at: Time.now)
          @entries[path] = Entry.new(bytes, file)
          file
        end
      end

      def delete(path)
        path = FileStore.path(path)
        with_lock do
          raise ArgumentError, "#{path} is a folder, not a file; use delete_folder" if folder?(path)

          @entries.delete(path)&.file
        end
      end

      # The total size of the files, in bytes.
      def total_size
        with_lock { @entries.sum { |_, entry| entry.bytes.bytesize } }
      end

      private

      def folder?(path)
        prefix = "#{path}/"
        @entries.each_key.any? { |other| other.start_with?(prefix) }
      end

      def check_place(path)
        raise ArgumentError, "#{path} is a folder, not a file" if folder?(path)

        parts = path.split('/')
        (1...parts.size).each do |n|
          parent = parts.first(n).join('/')
          raise ArgumentError, "#{path} goes through a file as if it were a folder" if @entries.key?(parent)
        end
      end

      def check_room(path, bytes)
        return unless @max_bytes

        needed = total_size - (@entries[path]&.bytes&.bytesize || 0) + bytes.bytesize
        return if needed <= @max_bytes

        raise FileStoreFullError,
              "#{FULL} Writing #{path} needs #{needed} bytes in all, and the limit is #{@max_bytes}."
      end
    end
  end
end
