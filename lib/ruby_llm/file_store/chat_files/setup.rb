# frozen_string_literal: true

require 'pathname'

module RubyLLM
  class FileStore
    class ChatFiles
      # What with_file_store (and an agent's file_store) was given, turned
      # into a store and its tools:
      #
      #   nothing      the chat's default store (a Memory; a persisted chat's
      #                Active Storage store, through default_file_store)
      #   "tmp/work"   a NativeDir on that folder (a String or a Pathname)
      #   :memory      a new Memory store
      #   a store      that store
      #
      # +tools:+ names the tool groups (:read is required), +inline_limit:+
      # is false or a whole number of characters from 1000, and +owner:+ a
      # record or an object with an id, for a store that keeps files for
      # several owners. +mounts:+ (mount name => store, :memory or a folder
      # path) puts the store and those in one tree, a
      # RubyLLM::FileStore::Mounts whose default store is the store (for
      # the owner, when one is given). +history:+ (true, or { keep:,
      # keep_for: }; a folder for a folder path) makes the store keep every
      # version of its files (see RubyLLM::FileStore#versions); a store
      # object given is made with history: by its maker.
      class Setup # :nodoc:
        # The argument of a bare with_file_store.
        DEFAULT = Object.new.tap { |default| def default.inspect = 'the default store' }.freeze

        attr_reader :store, :tools, :inline_limit, :groups

        # +default+ makes the default store when +store+ is DEFAULT.
        def self.build(store, default:, tools: FileStore::Tools::DEFAULT,
                       inline_limit: FileStore::Tools::DEFAULT_INLINE_LIMIT, owner: nil, mounts: nil, history: nil)
          FileStore::InlineLimit.check(inline_limit)
          stores = FileStores::Native::History::Stores
          store = history.nil? ? resolve(store, default) : stores.resolve(store, default, history)
          store = store.for_owner(owner) unless owner.nil?
          store = mounted(store, mounts)
          new(store, FileStore::Tools.for(store, tools:, inline_limit:), inline_limit, Array(tools))
        end

        # The store for an argument of with_file_store.
        def self.resolve(store, default)
          resolved = case store
                     when DEFAULT then default.call
                     when :memory then FileStore::Memory.new
                     when String, Pathname then NativeDir.new(RubyLLM::FileStore.folder_argument(store))
                     else store
                     end
          if resolved.is_a?(RubyLLM::FileStore)
            Integration::RecordChecks.table!(resolved)
            return resolved
          end

          raise ArgumentError, 'a file store is a folder path, :memory, a RubyLLM::FileStore, or nil to remove it; ' \
                               "not #{store.inspect}"
        end

        # +store+ with +mounts+ in one tree, or as it is without them.
        def self.mounted(store, mounts)
          return store if mounts.nil? || (mounts.is_a?(Hash) && mounts.empty?)

          unless mounts.is_a?(Hash)
            raise ArgumentError,
                  "mounts: must be a Hash of mount name => store, not #{mounts.inspect}"
          end

          FileStore::Mounts.new(store, mounts)
        end

        def initialize(store, tools, inline_limit, groups)
          @store = store
          @tools = tools.freeze
          @inline_limit = inline_limit
          @groups = groups.freeze
          freeze
        end
      end
    end
  end
end
