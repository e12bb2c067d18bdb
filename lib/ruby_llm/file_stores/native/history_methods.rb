# frozen_string_literal: true

module RubyLLM
  module FileStores
    module Native
      # A store's history, for people and apps (the model has no tool for
      # it): every version of every file, checkpoints, the changes since one
      # and a rewind to it. Off unless the store was made with history:
      # (Memory, NativeDir) or with_file_store(history: true); every method
      # here raises RubyLLM::FileStore::HistoryError on a store without.
      # HistoryRecorder records the versions; included by StoreMethods.
      module HistoryMethods
        include History::Recording
        include History::Lookups
        include History::Questions
        include History::Diffs

        # Whether the store keeps a history.
        def history? = !history_log.nil?

        # The versions of the file at +path+ (a deleted one too), newest
        # first, as RubyLLM::FileVersion values. An owner's view sees every
        # file its owner's and the shared ones, so it sees the versions of
        # both at +path+ (read_version, restore and diff take them; a shared
        # one restored becomes the owner's copy: see restore), never another
        # owner's.
        def versions(path)
          path = RubyLLM::FileStore.path(path)
          with_history { |log| history_view_records(log, path).reverse.map(&:to_version) }
        end

        # The bytes of +version+ (a RubyLLM::FileVersion of this store).
        # Raises RubyLLM::FileNotFoundError for a deletion or a version no
        # longer kept.
        def read_version(version)
          with_history do |log|
            record = history_record(log, version)
            unless record.digest
              raise RubyLLM::FileNotFoundError, "#{record.path} was #{record.change} in version #{record.id}: it " \
                                                'has no bytes; read an older version'
            end
            if record.unkept
              raise RubyLLM::FileNotFoundError, "version #{record.id} of #{record.path} is #{record.byte_size} " \
                                                'bytes, over the history\'s max_version_bytes: its bytes were not kept'
            end

            log.bytes(record)
          end
        end

        # Makes +version+ the file again (a deletion deletes it), recorded as
        # a new version (:restored); a deleted file comes back. Returns the
        # StoredFile, or nil for a deletion. In an owner's view, a version
        # becomes the owner's copy, which keeps its bytes whatever the app
        # does to the shared file later (the owner cannot change the shared
        # file, and restore names bytes, where rewind names a time); but a
        # version holding what the shared file holds now deletes the
        # owner's copy instead, so the view shows the shared file again.
        def restore(version)
          with_history do |log|
            record = history_record(log, version)
            History.acting(History.by, change: :restored) do
              next delete(record.path) && nil unless record.digest
              next history_show_shared(record.path) if history_shared_now?(log, record)

              write(record.path, log.content(record), content_type: record.content_type)
            end
          end
        end

        # The unified diff of two versions of a text file, +older+ against
        # +newer+ (nil: the file as it is now); an empty String when their
        # text is the same. A deletion counts as empty. Raises ArgumentError
        # for a version that is not text.
        def diff(older, newer = nil)
          with_history do |log|
            old_record = history_record(log, older)
            new_path, new_bytes = newer ? diff_side(log, history_record(log, newer)) : diff_current(old_record.path)
            _, old_bytes = diff_side(log, old_record)
            Native.unified_diff(old_bytes, new_bytes, "a/#{old_record.path}", "b/#{new_path}")
          end
        end

        # A RubyLLM::FileStore::Checkpoint of the files as they are now.
        def checkpoint
          with_history { |log| RubyLLM::FileStore::Checkpoint.new(id: log.last_id, created_at: Time.now) }
        end

        # What changed since +checkpoint+: a RubyLLM::FileStore::Checkpoint::Change
        # per file created, changed, deleted or moved, sorted by path, with
        # its version then (before, nil when it had none) and now (after).
        # An owner's view answers for its owner's files, the only ones it can
        # change: the owner's first change to a shared file is :changed from
        # the shared version it replaced, and a shared file changed by the
        # app is not the view's to undo (its versions are in versions(path)).
        def changes_since(checkpoint)
          with_history { |log| History::Rewind.changes(log, history_owner, checkpoint) }
        end

        # Puts every file back as it was at +checkpoint+: created ones
        # deleted, changed and deleted ones back (recorded as :restored),
        # moved ones back where they were; all or nothing, under the store's
        # lock. Returns what it undid (as changes_since gave it). Raises
        # RubyLLM::FileStore::HistoryError when a version it needs is no
        # longer kept, having changed nothing. With +to:+ a chat's user
        # message instead, the files go back to how they were when it was
        # asked (see remember_question). An owner's view rewinds its owner's
        # files (see changes_since): a copy the owner had then comes back;
        # where the view showed the shared file then, the owner's copy is
        # deleted, so the shared file shows through with what it holds now.
        #
        #   chat.file_store.rewind(to: chat.messages.where(role: 'user').second)
        def rewind(checkpoint = nil, to: nil)
          checkpoint = to_question(to) unless to.nil?
          with_history { |log| History::Rewind.run(self, log, history_owner, checkpoint) }
        end

        # Records as versions what the files at +paths+ (nil: every file,
        # and every file the history has that is gone) hold now, where a
        # change made around the store (code run in place in a NativeDir's
        # folder, a program writing there) left them unlike their newest
        # version, as made +by+. Nothing without history.
        def record_changes(paths = nil, by: History.by)
          log = history_log or return nil

          with_lock do
            history_recover(log)
            paths = paths&.map { |path| RubyLLM::FileStore.path(path) } || history_known_paths(log)
            history_catch_up_all(log, paths, by)
          end
          nil
        end

        # Runs the block under the store's lock, recording what it changed
        # around the store: each file's version before (by nil: it was
        # there) and what the block left (by History.by). run_code runs an
        # in-place run so.
        def with_lock_recording(&)
          with_lock do
            record_changes(by: nil)
            yield.tap { record_changes }
          end
        end

        private

        # The store's log (History::Log), or nil without history.
        def history_log = @file_store_history

        # Gives the store +log+ (nil: no history).
        def use_history(log)
          @file_store_history = log
        end

        # The owner whose versions this store sees (nil: no owner).
        def history_owner = nil

        def with_history
          log = history_log
          raise RubyLLM::FileStore::HistoryError, "#{inspect} keeps no history: make it with history:" unless log

          with_lock do
            history_recover(log)
            yield log
          end
        end

        def history_record(log, version)
          unless version.is_a?(RubyLLM::FileVersion)
            raise ArgumentError, "a version is a RubyLLM::FileVersion from versions(path), not #{version.class}"
          end

          record = log.record([history_owner, version.path], version.id)
          record ||= log.record([nil, version.path], version.id) if history_owner # a shared file's, in the view
          record || raise(RubyLLM::FileNotFoundError, "version #{version.id} of #{version.path} is no longer kept")
        end

        # Whether +record+ holds what the shared file at its path holds now,
        # in an owner's view: the view shows it without a copy of the owner's.
        def history_shared_now?(log, record)
          !history_owner.nil? && record.digest == log.newest([nil, record.path])&.digest
        end

        # Deletes the owner's copy at +path+, if any, so the shared file
        # shows through; returns the file the view shows.
        def history_show_shared(path)
          delete(path) if self[path] && !shared_file?(path)
          self[path]
        end

        # The versions at +path+ this store's view saw, oldest first (see
        # History::Views): an owner's view sees the shared file's too.
        def history_view_records(log, path)
          own = log.records([history_owner, path])
          return own if history_owner.nil?

          History::Views.records(own, log.records([nil, path]))
        end
      end
    end
  end
end
