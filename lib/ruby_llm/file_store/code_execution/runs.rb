# frozen_string_literal: true

require 'etc'
require 'fileutils'

module RubyLLM
  class FileStore
    class CodeExecution
      # The two ways a run goes, chosen by the store: in its folder, or in a
      # staged copy of the files the model named.
      module Runs
        private

        # In the store's folder, under its lock; what changed is found by
        # walking the folder before and after. The files' digests are made
        # only when asked for (Result#files), after the lock is let go.
        def run_in_place(lang, code_file, tmp)
          root = store.local_root
          outcome, mounts, swept, unsaved, error, trouble = store.with_lock_recording do
            before = Snapshot.take(root)
            outcome, mounts = execute(lang, code_file, root, tmp)
            swept, trouble = sweep(before, mounts)
            [outcome, mounts, swept, *over_capacity(root, swept), trouble]
          end
          created = swept.created - unsaved
          changed = swept.changed - unsaved
          result(lang, outcome, mounts, swept:, created:, changed:, deleted: swept.deleted,
                                        unsaved: unsaved + budget_removed(swept), error:,
                                        trouble: in_place_trouble(trouble), files: lazy_files(created + changed),
                                        in_place: created + changed)
        end

        def lazy_files(paths) = -> { paths.filter_map { |path| store[path] } }

        # In an empty folder with the named files copied in; what the run
        # created or changed is written back through the store.
        def run_staged(lang, code_file, tmp, files)
          folder = File.join(tmp, 'files')
          Dir.mkdir(folder)
          versions = Staging.copy_in(store, folder, files)
          before = Snapshot.take(folder)
          started = Process.clock_gettime(Process::CLOCK_MONOTONIC)
          outcome, mounts = execute(lang, code_file, folder, tmp)
          swept, trouble = sweep(before, mounts)
          saved, unsaved, error, conflicts = save_back(folder, swept, versions, started)
          kept = saved.map(&:path)
          result(lang, outcome, mounts, swept:, created: swept.created & kept, changed: swept.changed & kept,
                                        deleted: [], unsaved: unsaved + budget_removed(swept), error:,
                                        trouble: conflict_notes(conflicts, trouble), files: saved, in_place: [])
        end

        # What the run created or changed, written back (Staging.save).
        def save_back(folder, swept, versions, started)
          Staging.save(store, folder, swept.created + swept.changed, versions, deadline: save_deadline(started))
        end

        # Saving counts against the run's time limit: the save ends when the
        # limit does, counted from the run's start, but gets at least
        # SAVE_TIME_FLOOR seconds (or the whole limit, when shorter) after a
        # run that used all of its time.
        SAVE_TIME_FLOOR = 5

        def save_deadline(started)
          now = Process.clock_gettime(Process::CLOCK_MONOTONIC)
          [started + limits[:timeout], now + [limits[:timeout], SAVE_TIME_FLOOR].min].max
        end

        # What the run left, held to the run's budget. Whatever goes wrong
        # here, the run's output still comes back, with a note.
        def sweep(before, mounts)
          [before.sweep(skip: mounts.paths, entries: limits[:files_budget], bytes: limits[:bytes_budget]), nil]
        rescue StandardError => e
          [Snapshot::Sweep.empty, "The files the run left could not be checked (#{e.message}), so none are " \
                                  'listed here: find them with list_files.']
        end

        def budget_removed(swept)
          swept.removed.filter_map { |path, why| path if why == :budget && !Snapshot.hidden?(path) }
        end

        # A read-only store's own folder is bound read-only (Bwrap#command),
        # and gets no mount point: with mounts in it, the sandbox lays it out
        # around them (ReadOnlyRoot); a staged copy of one is bound
        # read-only too, but is the run's own. +binds+: a tree's mounts
        # (Mounts::Mount), bound after the runner's.
        def execute(lang, code_file, folder, tmp, binds: [], folder_read_only: folder_read_only?(folder))
          mounts = Mounts.new(folder, @mounts + binds, links: !@sandboxed, make: !read_only_own?(folder))
          begin
            bound = mounts.setup
            home_files(lang, tmp) unless @sandboxed
            outcome = @sandbox.run([*lang.command, @sandbox.code_path(code_file)],
                                   folder:, code: code_file, mounts: bound, home_files: lang.home_files,
                                   folder_read_only:, root: mounts.root,
                                   env: environment(lang, folder, tmp))
          ensure
            mounts.teardown
          end
          [outcome, mounts]
        end

        # Without a sandbox, home is the run's temporary folder: the files a
        # language keeps there are copied in.
        def home_files(lang, home)
          lang.home_files.each do |inside, host|
            FileUtils.mkdir_p(File.dirname(File.join(home, inside)))
            FileUtils.cp(host, File.join(home, inside))
          end
        end

        # The whole environment of a run: nothing of this process's.
        def environment(lang, folder, tmp)
          home = @sandboxed ? '/tmp' : tmp
          threads = [Etc.nprocessors, 8].min.to_s
          {
            'PATH' => [*lang.path, '/usr/local/bin', '/usr/bin', '/bin'].join(':'), 'HOME' => home,
            'TMPDIR' => home, 'LANG' => 'C.UTF-8', 'PYTHONPATH' => @sandbox.folder_path(folder),
            'MPLCONFIGDIR' => "#{home}/.matplotlib", 'OMP_NUM_THREADS' => threads,
            'OPENBLAS_NUM_THREADS' => threads, 'MKL_NUM_THREADS' => threads
          }.merge(lang.env)
        end

        # A folder store (+store+: the runner's, or a tree's mounted folder)
        # with a cap: when the folder holds more than the cap after the run (every file counts, hidden ones too: see
        # NativeDir#total_size), what the run created is removed, largest
        # first, and then what it grew, until the rest fits; each is named
        # as unsaved.
        def over_capacity(root, swept, store = self.store)
          cap = store.respond_to?(:max_bytes) && store.max_bytes
          touched = cap && (swept.created.any? || swept.changed.any? || swept.hidden.any?)
          total = touched ? store.total_size : 0
          return [[], nil] unless cap && total > cap

          unsaved = remove_largest(root, swept, total - cap)
          grown = unsaved & swept.changed
          [unsaved, "This chat's files are full: delete or overwrite files. The limit is #{cap} bytes." +
            (grown.empty? ? '' : " #{grown.join(', ')} grew past it and so were removed, earlier content too.")]
        rescue StandardError => e
          [[], "The files the run left could not be held to the limit of #{cap} bytes: #{e.message}"]
        end

        # Removes files the run created (hidden ones too), largest first,
        # then files it changed, until +excess+ bytes are gone; returns their
        # paths. A changed file goes last: it was the model's before the run.
        def remove_largest(root, swept, excess)
          sized = ->(paths) { paths.map { |path| [path, swept.sizes.fetch(path, 0)] } }
          largest = ->(rows) { rows.sort_by { |path, size| [-size, path] } }
          candidates = largest.call(sized.call(swept.created) + swept.hidden) + largest.call(sized.call(swept.changed))
          candidates.take_while do |path, size|
            next false unless excess.positive?

            FileStores::Native::RunTree.remove(root, path) # never through a link the run left behind
            excess -= size
          end.map(&:first)
        end
      end
    end
  end
end
