# frozen_string_literal: true

require 'json'
require 'fileutils'
require 'securerandom'

module RubyLLM
  module FileStores
    module Native
      module History
        # The history of a NativeDir, in a folder of its own outside the
        # store's (code in the sandbox sees the store's folder only):
        #
        #   journal          one JSON line per version, forgotten ids, and a
        #                    change under way ("pending"), appended under the
        #                    store's lock, so every process that opens the
        #                    folder reads the same history in the same order
        #   pack             the bytes of each digest a version holds, once,
        #                    appended (see Pack; a compacted one is pack-...)
        #   store            the store folder this history belongs to
        #
        # A change is marked under way before it starts and its versions
        # appended after it; a process killed between the two leaves the
        # mark last in the journal, and the next holder of the lock records
        # what the file holds then (#sync), so the file and its newest
        # version agree. The journal and pack are not fsynced: they survive
        # a crash of the process, not of the machine.
        class DirLog < Log
          include Pack
          include Compaction

          # Compacts the journal once it holds this many lines of forgotten
          # versions, and more than of kept ones.
          COMPACT_AFTER = 2_000

          attr_reader :folder

          def initialize(folder, keep:, keep_for:, max_version_bytes: nil)
            super(keep:, keep_for:, max_version_bytes:)
            @folder = folder
            @journal = File.join(folder, 'journal')
            @legacy_blobs = File.directory?(File.join(folder, 'blobs'))
            @identity = nil
            reload
          end

          def sync
            stat = journal_stat
            return nil unless stat

            identity = [stat.dev, stat.ino]
            if identity != @identity || stat.size < @offset
              reload
              close_journal
              @legacy_blobs = File.directory?(File.join(@folder, 'blobs'))
            end
            @identity = identity
            read_from(@offset, stat.size) if stat.size > @offset
            @pending
          end

          def begin_change(owner, paths)
            @pending = paths.uniq.map { |path| [owner, path] }
            append([{ 'pending' => @pending }])
          end

          def end_change
            return unless @pending

            append([{ 'ok' => 1 }])
            @pending = nil
          end

          def inspect = "#<#{self.class.name} #{folder}>"

          private

          def journal_stat
            File.stat(@journal)
          rescue Errno::ENOENT
            nil
          end

          def reset
            super
            reset_pack
          end

          def reload
            reset
            @offset = 0
            @forgotten_lines = 0
            @pending = nil
          end

          # Reads the journal's lines from +from+ to +to+ and applies them; a
          # last line without its newline (a process killed mid-append) is cut
          # off, as the lock's holder may.
          def read_from(from, to)
            chunk = File.open(@journal, 'rb') do |file|
              file.seek(from)
              file.read(to - from)
            end
            whole = chunk.rindex("\n")
            if whole.nil? || whole < chunk.bytesize - 1
              kept = whole ? whole + 1 : 0
              File.truncate(@journal, from + kept)
              chunk = chunk.byteslice(0, kept)
            end
            chunk.each_line { |line| apply_line(JSON.parse(line)) }
            @offset = from + chunk.bytesize
          end

          def apply_line(line)
            if line.key?('i')
              record = Lines.decode(line)
              note_place(record, line['x'])
              apply(record)
              @pending = nil
            elsif line.key?('f')
              line['f'].each { |id| forget_id(id) }
              @forgotten_lines += 1
            elsif line.key?('q')
              @questions[line['q']] = line['cp']
            elsif line.key?('pending')
              @pending = line['pending']
            elsif line.key?('pack')
              close_pack
              @pack_name = line['pack']
            else
              @pending = nil
            end
          end

          def forget_id(id)
            @records.each_value do |list|
              record = list.find { |each| each.id == id } or next
              return drop(record)
            end
          end

          def persist(records)
            append(records.map { |record| Lines.encode(record, place_of(record)) })
            @pending = nil
          end

          # A question of a persisted chat's record, kept across processes; a
          # chat in memory's question lives as long as this log.
          def persist_question(key, id)
            append([{ 'q' => key, 'cp' => id }]) unless object_question?(key)
          end

          def object_question?(key) = key.start_with?('/question/object-')

          def persist_forget(records)
            append([{ 'f' => records.map(&:id) }])
            @forgotten_lines += 1
          end

          # Appends +lines+ in one write, so a killed process leaves whole
          # lines (and #read_from cuts a torn one).
          def append(lines)
            text = lines.map { |line| "#{JSON.generate(line)}\n" }.join
            @offset += journal_io.write(text)
            compact if @forgotten_lines > COMPACT_AFTER && @forgotten_lines > @records.size
          end

          # The journal open for appending (O_APPEND, unbuffered), opened once:
          # a change costs one write, not an open and a close.
          def journal_io
            return @io if @io && !@io.closed?

            @io = File.open(@journal, 'ab')
            @io.sync = true
            stat = @io.stat
            @identity = [stat.dev, stat.ino]
            @io
          end

          def close_journal
            @io&.close
            @io = nil
          end
        end
      end
    end
  end
end
