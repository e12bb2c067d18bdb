# frozen_string_literal: true

module RubyLLM
  class FileStore
    class Mounts < FileStore
      # The locks of several stores, always taken in the order given (the
      # tree's: the default store, then the mounts by name), so that two
      # holders wanting the same two locks never wait for each other.
      module Locks
        module_function

        # Runs the block holding the lock of each of +stores+, nested in
        # their order; each store once.
        def hold(stores, &block)
          stores.uniq(&:object_id).reverse.reduce(block) do |inner, store|
            -> { store.with_lock(&inner) }
          end.call
        end

        # Whether +store+ refuses every change, so that it has nothing to lock.
        def read_only?(store)
          store.respond_to?(:read_only?) && store.read_only? == true
        end
      end
    end
  end
end
