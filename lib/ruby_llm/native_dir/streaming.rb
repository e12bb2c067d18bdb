# frozen_string_literal: true

module RubyLLM
  class NativeDir < FileStore
    # NativeDir's way with big files: each_chunk and write of an IO pass a
    # file through in 1 MB chunks, read and written in Rust without the
    # GVL, so memory does not grow with the file's size.
    module Streaming
      # Yields the file's bytes in chunks of up to 1 MB, in order, read in
      # Rust from the one file opened (never through a link), so copying a
      # file of any size holds one chunk. Each chunk is emptied when the
      # block returns, as on Active Storage (its bytes freed at once, not
      # left for the GC): copy what you keep (+chunk.dup+). Returns nil; an
      # Enumerator without a block (use it to copy, not to collect).
      def each_chunk(path, &block)
        return enum_for(:each_chunk, path) unless block

        @core.each_chunk(FileStore.path(path), &block)
        nil
      end

      private

      # Writes the IO +content+ (rewound when it can be) to +path+ as it
      # reads, io.read(1 MB, buffer) at a time: under the lock, each chunk
      # counted against max_bytes before it reaches the disk and hashed as
      # it comes, into the temporary file that is renamed over +path+ at the
      # end. An IO that raises, or a chunk past the cap, leaves the old file.
      def write_chunks(path, content)
        FileStores::Native::IoContent.rewind(content)
        locking { @core.write_io(path, content, lock_owner) }
      end
    end
  end
end
