# frozen_string_literal: true

require 'pathname'

module RubyLLM
  module FileStores
    module Native
      module History
        # The stores with_file_store(history:) and an agent's
        # file_store history: give, and the question checkpoints a chat
        # takes (FileStore::ChatFiles).
        module Stores
          module_function

          # The store for with_file_store's +store+ argument made with
          # +history+: the default store (a record's Active Storage store, or
          # a Memory), :memory, or a folder (whose history is a folder too).
          def resolve(store, default, history)
            case store
            when FileStore::ChatFiles::Setup::DEFAULT then default_with(default, history)
            when :memory then RubyLLM::FileStore::Memory.new(history:)
            when String, Pathname then folder(store.to_s, history)
            else
              raise ArgumentError, 'history: is for a store with_file_store makes (the default, :memory or a ' \
                                   'folder); make your own store with history: instead'
            end
          end

          # The default store with history: a persisted chat's Active Storage
          # store, or a Memory.
          def default_with(default, history)
            store = default.call
            return RubyLLM::FileStore::Memory.new(history:) if store.instance_of?(RubyLLM::FileStore::Memory)
            if store.is_a?(RubyLLM::FileStore::ActiveStorage)
              return RubyLLM::FileStore::ActiveStorage.new(store.chat, max_bytes: store.max_bytes, history:)
            end

            raise ArgumentError, "history: is for a Memory or an Active Storage store, not #{store.inspect}: " \
                                 'make it with history: instead'
          end

          def folder(path, history)
            if history == true
              raise ArgumentError, "a folder's history is a folder of its own, outside it: give history: 'path' " \
                                   "or { path:, keep: }, not true, for #{path}"
            end

            NativeDir.new(path, history:)
          end

          # Whether the chat record +record+ has a history in
          # ruby_llm_chat_file_versions (so its store keeps one again).
          def kept_for?(record)
            versions = RubyLLM::ActiveRecord::ChatFileVersion
            versions.table? && versions.exists?(chat_type: record.class.polymorphic_name, chat_id: record.id)
          rescue NameError
            false
          end

          # The checkpoint of +store+ before a question, or nil when it keeps
          # no history.
          def before_question(store)
            store&.history? ? store.checkpoint : nil
          end

          # Remembers +checkpoint+ (from before_question) for +message+.
          def asked(store, message, checkpoint)
            store.remember_question(message, checkpoint) if checkpoint
          end
        end
      end
    end
  end
end
