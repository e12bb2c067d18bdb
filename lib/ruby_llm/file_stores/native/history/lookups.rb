# frozen_string_literal: true

module RubyLLM
  module FileStores
    module Native
      module History
        # How Recording looks up the files of a change, their newest
        # versions and what their versions hold: a single file's the short
        # way, several at once where a store can (Active Storage answers
        # each with one query for a staged run's files, not one per file).
        # Included by HistoryMethods.
        module Lookups
          private

          # The files at +paths+ before a change, path => StoredFile or nil,
          # each caught up with (see history_catch_up); a single file's the
          # short way, as most changes are one write.
          def history_before(log, paths)
            if paths.size == 1
              path = paths.first
              file = history_file(path)
              history_catch_up(log, path, file)
              return { path => file }
            end

            history_files(paths.uniq).tap { |before| history_catch_up_files(log, before, nil) }
          end

          # The files at +paths+ (valid, distinct), path => StoredFile or nil:
          # one history_file each, which a store may look up at once (Active
          # Storage: one query for a staged run's files, not one each).
          def history_files(paths) = paths.to_h { |path| [path, history_file(path)] }

          # Keeps the bytes of each of +files+ ([path, StoredFile] pairs) a
          # version will hold, but those over max_version_bytes; returns path
          # => what history_keep_bytes returned. Active Storage finds the
          # blobs of them all at once.
          def history_hold_all(log, files, written = nil)
            files.each_with_object({}) do |(path, file), held|
              held[path] = history_keep_bytes(log, path, file, written) unless log.too_big?(file.byte_size)
            end
          end

          # history_catch_up for each of +paths+, the versions added at once
          # (one append to a NativeDir's journal, not one per file).
          def history_catch_up_all(log, paths, by)
            history_catch_up_files(log, history_files(paths.uniq), by)
          end

          # history_catch_up for each of +files+ (path => StoredFile or nil),
          # their newest versions looked up and the versions added at once.
          def history_catch_up_files(log, files, by)
            newest = log.newest_of(files.keys.map { |path| [history_owner, path] })
            versions = files.filter_map do |path, file|
              history_catch_up_fields(log, path, file, by, newest: newest[[history_owner, path]])
            end
            log.add(versions) unless versions.empty?
          end
        end
      end
    end
  end
end
