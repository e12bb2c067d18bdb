# frozen_string_literal: true

module RubyLLM
  module FileStores
    module Native
      # The one refusal of a read-only store: RubyLLM::FileStore puts it in
      # front of every subclass as the subclass is defined (as it does
      # WriteEvents), so every changing method of every store refuses before
      # it does anything, however the store implements it, and no store
      # checks by hand.
      module ReadOnlyGuard
        def write(path, ...)
          refuse_if_read_only(path)
          super
        end

        def delete(path, ...)
          refuse_if_read_only(path)
          super
        end

        # A tree of stores (Mounts) takes '' for its root: a folder, not a path.
        def delete_folder(folder, ...)
          raise RubyLLM::FileStore::ReadOnlyError, RubyLLM::FileStore.folder(folder) if read_only?

          super
        end

        def move(path, ...)
          refuse_if_read_only(path)
          super
        end

        # Nothing saved, every path named unsaved, with the refusal's
        # message: write_many never raises for a file it cannot save.
        def write_many(paths, ...)
          return super unless read_only? && paths.any?

          [[], paths.dup, RubyLLM::FileStore::ReadOnlyError.new(RubyLLM::FileStore.path(paths.first)).message]
        end

        private

        # Raises RubyLLM::FileStore::ReadOnlyError for +path+ on a read-only
        # store (ArgumentError first for a path no store takes).
        def refuse_if_read_only(path)
          path = RubyLLM::FileStore.path(path)
          raise RubyLLM::FileStore::ReadOnlyError, path if read_only?
        end
      end
    end
  end
end
