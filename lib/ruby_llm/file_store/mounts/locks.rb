# frozen_string_literal: true

module RubyLLM
  class FileStore
    class Mounts < FileStore
      # The locks of several stores, always taken in one global order: sorted
      # by each store's lock_key (a NativeDir's real folder, an Active
      # Storage chat's table and id, a Memory store's lock), not by where a
      # tree mounts them. Two trees that mount the same stores under other
      # names, in this process or another, take their locks in the same
      # order, so two holders wanting the same two locks never wait for each
      # other. A tree mounted in a tree gives its own stores' locks.
      module Locks # :nodoc:
        module_function

        # Runs the block holding the lock of each of +stores+ that can
        # change, nested in lock_key order; each key once.
        def hold(stores, &block)
          ordered(stores).reverse.reduce(block) do |inner, store|
            -> { store.with_lock(&inner) }
          end.call
        end

        # The stores whose locks +stores+ take, each once, read-only ones
        # (which have nothing to lock) left out, in the order they are taken.
        # Stores with one key share one lock (two NativeDirs of one folder, a
        # Memory store and its views), so the first of them stands for all:
        # taking the second from the same thread would wait for the first.
        def ordered(stores)
          stores.flat_map { |store| lockable(store) }.uniq { |store| key(store) }.sort_by! { |store| key(store) }
        end

        def lockable(store)
          return [] if read_only?(store)
          return [store.default_store, *store.mounts.values].flat_map { |inner| lockable(inner) } if store.is_a?(Mounts)

          [store]
        end

        # +store+'s lock_key; a store whose own is not a String (or raises)
        # is named by its object.
        def key(store)
          key = store.lock_key
          key.is_a?(String) ? key : "#{store.class.name}@#{store.object_id}"
        rescue StandardError
          "#{store.class.name}@#{store.object_id}"
        end

        # Whether +store+ refuses every change, so that it has nothing to lock.
        def read_only?(store)
          store.read_only? == true
        end
      end
    end
  end
end
