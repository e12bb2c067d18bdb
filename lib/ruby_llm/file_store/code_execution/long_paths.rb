# frozen_string_literal: true

module RubyLLM
  class FileStore
    class CodeExecution
      # What the code left in a mounted folder whose path in the tree no
      # store path can be: the sweep holds each folder to the depth a store
      # path may have from the folder's own root, but the mount's name in
      # front adds its names and bytes (64 names, 4,000 bytes in all). Such
      # a file is in no store of the tree (no tool reaches it, and naming it
      # would raise where the result is used): one the run created is
      # removed, never through a link; one it changed (the store's own,
      # there before) is left, and both are named like the sweep's removals.
      module LongPaths # :nodoc:
        module_function

        # +sweep+ (of +view+'s folder) without the files whose full paths
        # are not store paths, the created ones removed from the folder (and
        # the deleted ones, which no tool knew, left unnamed).
        def trim(view, sweep)
          return sweep if view.prefix.empty?

          created, changed, deleted = [sweep.created, sweep.changed, sweep.deleted].map { |paths| long(view, paths) }
          return sweep if [created, changed, deleted].all?(&:empty?)

          created.each { |path| FileStores::Native::RunTree.remove(view.root, path) }
          without(sweep, created, changed).tap { |copy| copy.deleted = sweep.deleted - deleted }
        end

        def long(view, paths) = paths.reject { |path| path?(view.full(path)) }

        def path?(full)
          FileStore.path(full)
          true
        rescue ArgumentError
          false
        end

        def without(sweep, created, changed)
          copy = sweep.dup
          copy.created = sweep.created - created
          copy.changed = sweep.changed - changed
          copy.sizes = sweep.sizes.except(*created, *changed)
          copy.removed = sweep.removed + created.map { |path| [path, :too_long] } +
                         changed.map { |path| [path, :too_long_kept] }
          copy.removed_count = sweep.removed_count + created.size + changed.size
          copy
        end
      end
    end
  end
end
