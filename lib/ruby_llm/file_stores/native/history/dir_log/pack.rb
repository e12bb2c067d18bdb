# frozen_string_literal: true

require 'fileutils'
require 'securerandom'

module RubyLLM
  module FileStores
    module Native
      module History
        class DirLog < Log
          # The bytes of the versions of a NativeDir's history: appended,
          # once per digest, to one pack file (opened once, O_APPEND), each
          # version's journal line saying where ("x": the offset; the length
          # is its byte_size). A version costs one write, not a file made,
          # written and renamed. The bytes go in before the line that names
          # them, so a process killed in between leaves bytes no line names,
          # never a line without its bytes; they go with the next compaction,
          # which copies the bytes versions still hold into a new pack once
          # the pack holds more bytes no version holds than bytes it does
          # (and more than COMPACT_PACK_AFTER), and names it in the new
          # journal's first line ({"pack": name}).
          #
          # A history folder written before packs keeps each digest's bytes
          # in blobs/ab/abc... (lines without "x"): they are read and removed
          # there as before, and new versions go to the pack.
          module Pack
            # The name of the pack until a compaction names another.
            FIRST_PACK = 'pack'
            # A pack is compacted only past this many bytes.
            COMPACT_PACK_AFTER = 8 << 20

            # Counts what a version's bytes add to the pack.
            class Sink
              attr_reader :size

              def initialize(io)
                @io = io
                @size = 0
              end

              def <<(chunk)
                @size += @io.write(chunk)
                self
              end
            end

            # The bytes of +record+; RubyLLM::FileNotFoundError when they are
            # not kept (or not as the version's digest says).
            def bytes(record)
              place = @places[record.digest]
              return legacy_bytes(record) unless place

              bytes = File.open(pack_path, 'rb') { |file| file.pread(place.last, place.first) }
              return bytes if bytes.bytesize == record.byte_size && Native.sha256_hex(bytes) == record.digest

              raise RubyLLM::FileNotFoundError, "version #{record.id} of #{record.path} is damaged in the history's " \
                                                "pack #{pack_path}"
            rescue Errno::ENOENT, EOFError
              raise RubyLLM::FileNotFoundError, "version #{record.id} of #{record.path} is no longer kept"
            end

            def bytes?(digest) = @places.key?(digest) || (@legacy_blobs && File.exist?(blob(digest)))

            private

            def reset_pack
              @places = {} # digest => [offset, byte_size] in the pack
              @pack_name = FIRST_PACK
              @live_bytes = 0
              close_pack
            end

            def pack_path = File.join(@folder, @pack_name)

            # Where +record+'s bytes are in the pack (nil: not there).
            def place_of(record) = record.bytes_kept? ? @places[record.digest]&.first : nil

            # Notes the place a journal line gives for +record+'s bytes.
            def note_place(record, offset)
              return unless offset && record.bytes_kept?

              @live_bytes -= @places[record.digest]&.last.to_i
              @places[record.digest] = [offset, record.byte_size]
              @live_bytes += record.byte_size
            end

            # Appends the bytes of +digest+ (the block writes them to its sink)
            # at the pack's end, found under the lock.
            def keep_bytes(digest)
              io = pack_io
              offset = io.size
              sink = Sink.new(io)
              yield sink
              @live_bytes -= @places[digest]&.last.to_i
              @places[digest] = [offset, sink.size]
              @live_bytes += sink.size
              @pack_size = offset + sink.size
            end

            def drop_bytes(digest)
              place = @places.delete(digest)
              return @live_bytes -= place.last if place

              FileUtils.rm_f(blob(digest)) if @legacy_blobs
            end

            # The pack open for appending, opened once (unbuffered).
            def pack_io
              return @pack_io if @pack_io && !@pack_io.closed?

              @pack_io = File.open(pack_path, File::WRONLY | File::APPEND | File::CREAT | File::BINARY, 0o600)
              @pack_io.sync = true
              @pack_io
            end

            def close_pack
              @pack_io&.close
              @pack_io = nil
              @pack_size = nil
            end

            def pack_due?
              size = @pack_size ||= File.size?(pack_path).to_i
              size > COMPACT_PACK_AFTER && size - @live_bytes > @live_bytes
            end

            # Copies the bytes versions hold into a new pack; returns its name
            # (the journal written next names it; the old pack is removed
            # after that, by remove_other_packs).
            def write_new_pack
              name = "pack-#{SecureRandom.hex(6)}"
              places = {}
              flags = File::WRONLY | File::CREAT | File::EXCL | File::BINARY
              File.open(File.join(@folder, name), flags, 0o600) do |out|
                File.open(pack_path, 'rb') do |old|
                  @places.each do |digest, (offset, size)|
                    next unless @refs.key?(digest)

                    places[digest] = [out.pos, size]
                    IO.copy_stream(old, out, size, offset)
                  end
                end
              end
              close_pack
              @places = places
              @live_bytes = places.sum { |_, (_, size)| size }
              @pack_name = name
            end

            # Removes the packs but the one the journal names (an old one, or
            # one a process killed mid-compaction left).
            def remove_other_packs
              Dir.children(@folder).each do |name|
                FileUtils.rm_f(File.join(@folder, name)) if name.start_with?(FIRST_PACK) && name != @pack_name
              end
            end

            # The pack's line at the head of a compacted journal (none for the first).
            def pack_line = @pack_name == FIRST_PACK ? [] : [{ 'pack' => @pack_name }]

            # The bytes of a version a build before packs kept in blobs/ (read
            # whether or not the folder had blobs/ when opened).
            def legacy_bytes(record) = File.binread(blob(record.digest))

            # Where a folder written before packs keeps the bytes of +digest+.
            def blob(digest)
              raise ArgumentError, 'not a digest' unless digest.match?(/\A[0-9a-f]{64}\z/)

              File.join(@folder, 'blobs', digest[0, 2], digest)
            end
          end
        end
      end
    end
  end
end
