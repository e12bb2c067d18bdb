# frozen_string_literal: true

require 'etc'
require 'fileutils'
require_relative 'sweeps'

module RubyLLM
  class FileStore
    class CodeExecution
      # The one way a run goes: over a tree of folders (a Layout), each a
      # store's own bound in place (read-write under the store's lock, or
      # read-only) or staged in one scratch folder laid out with the tree's
      # full paths (the files the model named copied in, what the run
      # created or changed saved back through the store after it).
      module Runs # :nodoc:
        include Sweeps

        # What one run carries from its start to its result.
        Run = Struct.new(:layout, :scratch, :versions, :started, keyword_init: true) do
          # Where the code runs: the default store's folder in place, else
          # the scratch folder.
          def folder = layout.in_place? ? layout.default.root : scratch
        end

        private

        # +files+: the StoredFiles the model named, of the staged stores.
        def run_tree(lang, code_file, tmp, layout, files)
          run = start_tree(layout, tmp, files)
          binds = tree_binds(run)
          # The locks are let go before saving: the save takes the tree's,
          # in the tree's order.
          outcome, mounts, placed = holding(layout.locked_stores) do
            views = tree_views(run)
            outcome, mounts = execute(lang, code_file, tmp, run, binds)
            [outcome, mounts, sweep_views(views, mounts, run)]
          end
          tree_result(lang, outcome, mounts, placed, run)
        end

        # Runs the block holding the locks of +stores+ (the folders changed
        # in place) in the one global order, recording in each one's history
        # what it held before and what the block left (with_lock_recording).
        def holding(stores, &block)
          FileStore::Mounts::Locks.ordered(stores).reverse.reduce(block) do |inner, store|
            -> { store.with_lock_recording(&inner) }
          end.call
        end

        # The scratch folder made, with the staged stores' named files
        # copied in.
        def start_tree(layout, tmp, files)
          run = Run.new(layout:, scratch: File.join(tmp, 'files'))
          Dir.mkdir(run.scratch)
          run.versions = Staging.copy_in(store, run.scratch, files, layout.staged_versions)
          run.started = Process.clock_gettime(Process::CLOCK_MONOTONIC)
          run
        end

        # Every mount seen at its path: folders bound (read-only or not),
        # staged stores' folders in the scratch folder when the run's
        # folder is the default store's.
        def tree_binds(run)
          run.layout.binds(run.scratch).flat_map do |name, root, writable|
            FileUtils.mkdir_p(root) if root.start_with?("#{run.scratch}/")
            Mounts.check({ name => root }, writable:, hides: true)
          end
        end

        def staged_binds(run)
          run.layout.binds(run.scratch).filter_map { |name, root, _| name if root.start_with?("#{run.scratch}/") }
        end

        # The folders to sweep, each with its snapshot taken before the run.
        def tree_views(run)
          layout = run.layout
          views = []
          views << View.new(root: layout.default.root, prefix: '', part: layout.default) if layout.in_place?
          views << View.new(root: run.scratch, prefix: '', part: nil) if layout.staged?
          layout.of_kind(:folder).each { |part| views << View.new(root: part.root, prefix: part.name, part:) }
          views.each { |view| view.before = Snapshot.take(view.root) }
        end

        # The staged stores' files the run created or changed, saved back
        # through the tree (its read-only stores refuse theirs), as
        # Staging.save answers.
        def save_staged(placed, run)
          staged = placed.find { |one| one.view.part.nil? }
          return [[], [], nil, {}] unless staged

          paths = staged.sweep.created + staged.sweep.changed
          Staging.save(store, run.scratch, paths, run.versions, deadline: save_deadline(run.started))
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

        # A read-only store's own folder is bound read-only (Bwrap#command),
        # and gets no mount point: with mounts in it, the sandbox lays it out
        # around them (ReadOnlyRoot); a staged copy of one is bound
        # read-only too (Layout#folder_read_only?). +binds+: a tree's
        # mounts (Mounts::Mount), bound after the runner's.
        def execute(lang, code_file, tmp, run, binds)
          folder = run.folder
          layout = run.layout
          mounts = Mounts.new(folder, @mounts + binds, links: !@sandboxed, make: !layout.read_only_root?)
          begin
            bound = mounts.setup
            home_files(lang, tmp) unless @sandboxed
            outcome = @sandbox.run([*lang.command, @sandbox.code_path(code_file)],
                                   folder:, code: code_file, mounts: bound, home_files: lang.home_files,
                                   folder_read_only: layout.folder_read_only?, root: mounts.root,
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
      end
    end
  end
end
