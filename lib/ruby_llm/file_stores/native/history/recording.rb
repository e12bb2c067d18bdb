# frozen_string_literal: true

module RubyLLM
  module FileStores
    module Native
      module History
        # How a change becomes versions, for HistoryRecorder and
        # HistoryMethods: what each path held before and after, compared
        # under the store's lock; the bytes a version holds kept first.
        # Included by HistoryMethods.
        module Recording
          # The change a catch-up records from the +newest+ version to +file+
          # (nil: no file): nil when there is nothing to record.
          def self.catch_up_change(newest, file)
            return nil if newest.nil? && file.nil?
            return :deleted if file.nil?

            newest.nil? || newest.digest.nil? ? :created : :changed
          end

          # Whether +written+ (what a write was given) is a String holding
          # exactly the bytes of +file+, so they need not be read back.
          def self.same_bytes?(written, file)
            written.is_a?(String) && written.bytesize == file.byte_size &&
              FileStores::Native.sha256_hex(written) == file.digest
          end

          private

          # Records the change the block makes to +paths+ (under the lock):
          # what each held before and after becomes a version, with what made
          # it (History.by). +moved+: [sources, targets] of a move; +written+:
          # what a write was given (its String's bytes need no reading back).
          def history_change(paths, moved: nil, written: nil, &block)
            log = history_log
            with_lock do
              history_recover(log)
              before = history_before(log, paths)
              log.begin_change(history_owner, paths)
              result = nil
              begin
                result = HistoryRecorder.active(log, &block)
              ensure
                after = result.is_a?(RubyLLM::StoredFile) && !written.nil? ? { result.path => result } : {}
                history_settle(log, before, after, moved, written)
              end
              result
            end
          end

          # The file at +path+, a valid path (FileStore.path), under the lock:
          # self[path], which a store may answer without checking the path again.
          def history_file(path) = self[path]

          # Adds a version for each of +before+'s paths whose file changed.
          # One clock read and one History.by for all of them.
          def history_settle(log, before, known, moved, written = nil)
            changed = history_changed(before, known)
            return log.end_change if changed.empty?

            held = if changed.size > 1
                     history_hold_all(log, changed.filter_map { |path, _, new| [path, new] if new }, written)
                   end
            by = History.by
            at = History.now
            log.add(changed.map! do |path, old, new|
              history_fields(log, path, history_change_of(path, old, new, moved), new, by, held:, written:, at:)
            end)
          end

          # [path, before, after] for each of +before+'s paths whose file
          # changed (+known+: the files after that the change returned).
          def history_changed(before, known)
            after = known.size == before.size ? known : history_files(before.keys - known.keys).merge!(known)
            before.filter_map do |path, old|
              new = after[path]
              [path, old, new] unless old&.digest == new&.digest && old.nil? == new.nil?
            end
          end

          def history_change_of(path, old, new, moved)
            return moved&.first&.include?(path) ? :moved_out : :deleted if new.nil?
            return :restored if History.change_override
            return :moved_in if moved&.last&.include?(path)

            old.nil? ? :created : :changed
          end

          # A version (a Record without its id) for +file+ (nil: none) at +path+, its bytes
          # kept (+held+: already, by history_hold_all).
          # +at+: the time of the change (Record#at). Its path and content
          # type are the one String of each (String#-@), not one per version.
          def history_fields(log, path, change, file, by, baseline: false, held: nil, written: nil,
                             at: History.now)
            unkept = file && log.too_big?(file.byte_size) ? true : nil
            blob_id = held ? held[path] : history_keep_bytes(log, path, file, written) if file && !unkept
            content_type = file&.content_type
            Record.new(nil, history_owner, -path, change, file&.digest, file ? file.byte_size : 0,
                       content_type && -content_type, at, by, baseline, blob_id, unkept)
          end

          # Keeps the bytes of +file+ at +path+ for a version (+written+: what
          # a write was given); returns the blob that holds them where the
          # store has one (Active Storage overrides it: the file's own blob,
          # nothing copied), else nil. NativeDir keeps a written String's
          # bytes without reading the file back.
          def history_keep_bytes(log, path, file, _written = nil)
            log.hold(file.digest) { |sink| each_chunk(path) { |chunk| sink << chunk } }
            nil
          end

          # Records what the file at +path+ holds (+file+, nil: nothing) when
          # its newest version says otherwise: the bytes it had before the
          # history first saw it (a baseline, older than any checkpoint), or a
          # change made around the store (on disk, by an in-place run).
          def history_catch_up(log, path, file, by: nil)
            fields = history_catch_up_fields(log, path, file, by)
            log.add([fields]) if fields
          end

          # The version history_catch_up records for +file+ at +path+, or nil
          # (+newest+: its newest version, when looked up already).
          def history_catch_up_fields(log, path, file, by, newest: log.newest([history_owner, path]))
            return nil if newest&.digest == file&.digest

            change = Recording.catch_up_change(newest, file) or return nil
            history_fields(log, path, change, file, by, baseline: newest.nil? && by.nil?)
          end

          # Every path with a file now, and every path whose newest version
          # has bytes (a file that may be gone).
          def history_known_paths(log)
            (list.map(&:path) + log.keys_since(0, history_owner).map(&:last)).uniq
          end

          # Brings the log up to date, and records what the files of a change
          # whose process died midway hold now.
          def history_recover(log)
            keys = log.sync or return

            keys.each do |owner, path|
              history_catch_up(log, path, self[path]) if owner == history_owner
            end
            log.end_change
          end
        end
      end
    end
  end
end
