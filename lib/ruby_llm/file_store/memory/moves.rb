# frozen_string_literal: true

module RubyLLM
  class FileStore
    class Memory < FileStore
      # Read-only views and moves of a Memory store. Included by the store.
      module Moves
        # Whether the store refuses every change (made with read_only: true,
        # or by #read_only_view).
        def read_only? = @read_only

        # A read-only store over the same files: it sees what this store
        # writes, and changes nothing.
        def read_only_view
          clone(freeze: false).become_read_only
        end

        protected

        # Makes this clone refuse changes, with its own reads and texts.
        def become_read_only
          @read_only = true
          forget_file_store_state
          self
        end
      end
    end
  end
end
