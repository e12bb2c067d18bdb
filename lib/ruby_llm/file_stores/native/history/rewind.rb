# frozen_string_literal: true

module RubyLLM
  module FileStores
    module Native
      module History
        # changes_since and rewind over a log, for any store: what each file
        # was at a checkpoint against what it is now, and putting it back.
        # Runs under the store's lock (HistoryMethods takes it).
        module Rewind
          Change = RubyLLM::FileStore::Checkpoint::Change

          module_function

          # The changes of +owner+'s files since +checkpoint+, sorted by path.
          # With +strict+, raises HistoryError when what a file was at the
          # checkpoint is no longer kept.
          def changes(log, owner, checkpoint, strict: false)
            check(checkpoint)
            log.keys_since(checkpoint.id, owner).filter_map do |key|
              change_of(log, key, checkpoint, strict)
            end.sort_by(&:path)
          end

          # The change of the file of +key+ since +checkpoint+, or nil. An
          # owner's view that had no copy of its own then and has none now
          # has nothing of the owner's to undo, whatever the app did to the
          # shared file.
          def change_of(log, key, checkpoint, strict)
            list = log.records(key)
            before = at_checkpoint(list, checkpoint)
            forgotten!(key) if strict && before.nil? && log.forgotten_by?(key, checkpoint.id)
            after = list.last
            return nil if before&.digest == after.digest
            return nil unless copy?(log, key.first, before) || copy?(log, key.first, after)

            before = nil unless before&.digest
            Change.new(path: key.last, change: kind(before, after), before: before&.to_version,
                       after: after.to_version)
          end

          # The version of +list+ (a file's, oldest first) at +checkpoint+:
          # the newest as old as it, or the bytes the file had before the
          # history first saw it; nil when it had none.
          def at_checkpoint(list, checkpoint)
            list.reverse_each.find { |record| record.id <= checkpoint.id } || (list.first if list.first.baseline)
          end

          def forgotten!(key)
            raise RubyLLM::FileStore::HistoryError,
                  "#{key.last} changed more than the history keeps since that checkpoint: its version then is " \
                  'no longer kept, so nothing was rewound (keep more with history: { keep: })'
          end

          def kind(before, after)
            return after.change == :moved_in ? :moved_in : :created if before.nil?
            return after.change == :moved_out ? :moved_out : :deleted if after.digest.nil?

            :changed
          end

          # Puts +store+'s files back as they were at +checkpoint+, all or
          # nothing; returns the changes it undid.
          def run(store, log, owner, checkpoint)
            changes = changes(log, owner, checkpoint, strict: true)
            missing = changes.find do |change|
              record = before_record(log, owner, change)
              copy?(log, owner, record) && !log.kept?(record)
            end
            if missing
              raise RubyLLM::FileStore::HistoryError,
                    "the bytes of #{missing.path} at that checkpoint are no longer kept: nothing was rewound"
            end

            History.acting(History.by, change: :restored) { put_back(store, log, owner, changes) }
            changes
          end

          # Deletes first (deepest paths first), then writes, so a file where
          # a folder was (or the other way) has its place free; when a step
          # fails, the steps done are undone and the error raised.
          def put_back(store, log, owner, changes)
            deletes, writes = changes.partition { |change| !copy?(log, owner, before_record(log, owner, change)) }
            done = []
            (deletes.sort_by { |change| -change.path.count('/') } + writes).each do |change|
              become(store, log, owner, change.path, change.before)
              done << change
            end
          rescue StandardError
            done.reverse_each do |change|
              become(store, log, owner, change.path, change.after)
            rescue StandardError
              nil
            end
            raise
          end

          # Makes the file at +path+ what +version+ holds (nil or a deletion:
          # no file). In an owner's view, a version that was the shared file
          # showing through (the owner had no copy: see Views.copy?) deletes
          # the owner's copy, so the shared file shows through again with
          # what it holds now, rather than its old bytes becoming a copy
          # that would hide the app's later changes.
          def become(store, log, owner, path, version)
            record = version && log.record([owner, path], version.id)
            if copy?(log, owner, record)
              store.write(path, log.content(record), content_type: version.content_type) if
                store[path]&.digest != version.digest
            elsif store[path] && !store.shared_file?(path)
              store.delete(path)
            end
          end

          # Whether +record+ (nil: none) is of a file of +owner+'s view's own
          # (any file, without an owner), rather than no file or the shared
          # file showing through.
          def copy?(log, owner, record)
            !record&.digest.nil? && (owner.nil? || Views.copy_in?(log, record))
          end

          def before_record(log, owner, change)
            change.before && log.record([owner, change.path], change.before.id)
          end

          def check(checkpoint)
            return if checkpoint.is_a?(RubyLLM::FileStore::Checkpoint)

            raise ArgumentError, 'a checkpoint is a RubyLLM::FileStore::Checkpoint from store.checkpoint, not ' \
                                 "#{checkpoint.class}"
          end
        end
      end
    end
  end
end
