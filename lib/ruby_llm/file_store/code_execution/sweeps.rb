# frozen_string_literal: true

require_relative 'view'
require_relative 'swept'
require_relative 'hidden_writes'
require_relative 'long_paths'

module RubyLLM
  class FileStore
    class CodeExecution
      # What a run (Runs) left in each folder of its tree, held to the
      # run's budget and each store's cap, and the Result made of it.
      module Sweeps # :nodoc:
        private

        # Each folder's sweep (a Swept), the run's budget shared among them
        # in turn, and each folder held to its store's cap.
        def sweep_views(views, mounts, run)
          own = staged_binds(run)
          entries = limits[:files_budget]
          bytes = limits[:bytes_budget]
          views.map do |view|
            sweep, trouble = sweep_view(view, view.skip(mounts.paths, own), [entries, bytes])
            spent_entries, spent_bytes = sweep.spent
            entries = [entries - spent_entries, 0].max
            bytes = [bytes - spent_bytes, 0].max
            over, cap_note = view.in_place? ? over_capacity(view.root, sweep, view.part.store) : [[], nil]
            Swept.new(view:, sweep:, over:, cap_note:, trouble:)
          end
        end

        # Whatever goes wrong sweeping, the run's output still comes back,
        # with a note.
        def sweep_view(view, skip, (entries, bytes))
          [LongPaths.trim(view, view.before.sweep(skip:, entries:, bytes:)), nil]
        rescue StandardError => e
          where = view.prefix.empty? ? 'the folder' : view.prefix
          [Snapshot::Sweep.empty, "The files the run left in #{where} could not be checked (#{e.message}), so none " \
                                  'are listed here: find them with list_files.']
        end

        # A folder store in place with a cap: when the folder holds more
        # than the cap after the run (every file counts, hidden ones too:
        # see NativeDir#total_size), what the run created is removed,
        # largest first, and then what it grew, until the rest fits; each is
        # named as unsaved.
        def over_capacity(root, swept, store)
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

        # The Result of the run, once the staged stores' files are saved.
        def tree_result(lang, outcome, mounts, placed, run)
          saved, unsaved, error, conflicts = save_staged(placed, run)
          refused = read_only_writes(outcome, run.layout)
          hidden = HiddenWrites.paths(placed, run.layout)
          paths = tree_paths(placed, saved, unsaved + refused, hidden)
          paths[:deleted] -= HiddenWrites.deleted(placed, run.layout)
          # A folder over its cap says so as a staged store's refused write
          # does: the files_error, the first store's; the others' are notes.
          error, *caps = [error || refused_error(refused), *placed.filter_map(&:cap_note)].compact
          result(lang, outcome, mounts, **paths,
                 error:, trouble: tree_trouble(placed, conflicts, refused, run.layout) + caps +
                                  HiddenWrites.notes(hidden))
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
          notes = conflict_notes(conflicts) + placed.filter_map(&:trouble)
          notes << ReadOnlyWrites.note(refused, layout.read_only_names) unless refused.empty?
          notes << Report::READ_ONLY if layout.folder_read_only?
          notes
        end

        def budget_removed(swept)
          swept.removed.filter_map { |path, why| path if why == :budget && !Snapshot.hidden?(path) }
        end
      end
    end
  end
end
