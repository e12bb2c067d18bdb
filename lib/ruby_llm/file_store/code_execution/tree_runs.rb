# frozen_string_literal: true

require 'fileutils'
require_relative 'view'
require_relative 'swept'
require_relative 'hidden_writes'
require_relative 'long_paths'

module RubyLLM
  class FileStore
    class CodeExecution
      # A run over a tree of stores (FileStore::Mounts), laid out store by
      # store (see Layout): the folders in place, each bound at its path,
      # the other stores staged in one scratch folder laid out with the
      # tree's full paths, saved back through the tree after the run.
      module TreeRuns
        # What one run over a tree carries from its start to its result.
        TreeRun = Struct.new(:layout, :scratch, :versions, :started, keyword_init: true)

        private

        # +files+: the StoredFiles the model named, of any store.
        def run_tree(lang, code_file, tmp, layout, files)
          run = start_tree(layout, tmp, files)
          binds = tree_binds(run)
          folder = layout.in_place? ? layout.default.root : run.scratch
          # The locks are let go before saving: the save takes the tree's,
          # in the tree's order.
          outcome, mounts, placed = FileStore::Mounts::Locks.hold(layout.locked_stores) do
            views = tree_views(run)
            outcome, mounts = execute(lang, code_file, folder, tmp, binds:, folder_read_only: default_read_only?)
            [outcome, mounts, sweep_views(views, mounts, staged_binds(run))]
          end
          tree_result(lang, outcome, mounts, placed, run)
        end

        # The scratch folder made, with the staged stores' named files
        # copied in.
        def start_tree(layout, tmp, files)
          run = TreeRun.new(layout:, scratch: File.join(tmp, 'files'))
          Dir.mkdir(run.scratch)
          run.versions = Staging.copy_in(store, run.scratch, layout.to_copy(files), versions: layout.staged_versions)
          run.started = Process.clock_gettime(Process::CLOCK_MONOTONIC)
          run
        end

        def default_read_only? = @sandboxed && FileStore::Mounts::Locks.read_only?(store.default_store)

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
          views << View.new(root: run.scratch, prefix: '', part: nil) if !layout.in_place? || layout.staged?
          layout.of_kind(:folder).each { |part| views << View.new(root: part.root, prefix: part.name, part:) }
          views.each { |view| view.before = Snapshot.take(view.root) }
        end

        # Each folder's sweep (a Swept), the run's budget shared among them
        # in turn, and each folder held to its store's cap.
        def sweep_views(views, mounts, own)
          entries = limits[:files_budget]
          bytes = limits[:bytes_budget]
          views.map do |view|
            sweep, trouble = sweep_view(view, mounts.paths, own, entries, bytes)
            spent_entries, spent_bytes = sweep.spent
            entries = [entries - spent_entries, 0].max
            bytes = [bytes - spent_bytes, 0].max
            over, cap_note = view.in_place? ? over_capacity(view.root, sweep, view.part.store) : [[], nil]
            Swept.new(view:, sweep:, over:, cap_note:, trouble:)
          end
        end

        def sweep_view(view, active, own, entries, bytes)
          [LongPaths.trim(view, view.before.sweep(skip: view.skip(active, own), entries:, bytes:)), nil]
        rescue StandardError => e
          [Snapshot::Sweep.empty, "The files the run left in #{view.prefix.empty? ? 'the folder' : view.prefix} " \
                                  "could not be checked (#{e.message}), so none are listed here: find them with " \
                                  'list_files.']
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

        def tree_result(lang, outcome, mounts, placed, run)
          saved, unsaved, error, conflicts = save_staged(placed, run)
          refused = read_only_writes(outcome, run.layout)
          hidden = HiddenWrites.paths(placed, run.layout)
          paths = tree_paths(placed, saved, unsaved + refused, hidden)
          paths[:deleted] -= HiddenWrites.deleted(placed, run.layout)
          result(lang, outcome, mounts, **paths,
                 error: error || refused_error(refused),
                 trouble: tree_trouble(placed, conflicts, refused, run.layout) + HiddenWrites.notes(hidden))
        end

        # The paths of the result, in full: what the code wrote in place,
        # what was saved back, and what was not kept (+unsaved+ and
        # +hidden+ besides what went over a cap or the budget).
        def tree_paths(placed, saved, unsaved, hidden)
          swept, in_place, dropped = tree_sweeps(placed, hidden)
          written = in_place.created + in_place.changed - dropped
          kept = written + saved.map(&:path)
          { swept:, created: (swept.created & kept).sort, changed: (swept.changed & kept).sort,
            deleted: in_place.deleted.sort, unsaved: (dropped + unsaved + budget_removed(swept)).uniq,
            files: -> { written.filter_map { |path| store[path] } + saved }, in_place: written }
        end

        # The sweeps of every folder as one, of the folders changed in place
        # as one, and what of them is not kept: removed over their caps, and
        # +hidden+ (HiddenWrites), in full paths.
        def tree_sweeps(placed, hidden)
          [Snapshot::Sweep.merge(placed.map(&:full_sweep)),
           Snapshot::Sweep.merge(placed.select(&:in_place?).map(&:full_sweep)), placed.flat_map(&:full_over) + hidden]
        end

        def refused_error(refused)
          FileStore::ReadOnlyError.new(refused.first).message unless refused.empty?
        end

        # What the code tried to write under a mount bound read-only, from
        # its own error messages (see ReadOnlyWrites).
        def read_only_writes(outcome, layout)
          return [] unless @sandboxed

          ReadOnlyWrites.paths([outcome.stderr.to_s, outcome.stdout.to_s], layout.read_only_names,
                               @sandbox.folder_path(''))
        end

        def tree_trouble(placed, conflicts, refused, layout)
          notes = conflict_notes(conflicts, nil) + placed.flat_map { |one| [one.trouble, one.cap_note] }.compact
          notes << ReadOnlyWrites.note(refused, layout.read_only_names) unless refused.empty?
          notes << Report::READ_ONLY if default_read_only?
          notes
        end
      end
    end
  end
end
