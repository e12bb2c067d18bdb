# frozen_string_literal: true

require 'pathname'

module RubyLLM
  class FileStore
    module Integration
      # An agent's file_store declaration, checked when it is declared and
      # applied to each chat the agent builds:
      #
      #   file_store                                  # each chat its default store
      #   file_store inline_limit: 20_000, tools: :read
      #   file_store -> { project.files_path }        # runs once per chat, with chat and inputs
      #   file_store 'docs'                           # one folder, shared by every chat
      #   file_store :memory                          # each chat a new store in memory
      #   file_store nil                              # removes a parent agent's store
      #   file_store owner: -> { Current.user }
      #   file_store history: { keep: 20 }            # every version of the chat's files (ChatFiles::Setup)
      #   file_store mounts: { 'handbook' => -> { RubyLLM::NativeDir.new('docs/handbook', read_only: true) } }
      #
      # Each lambda among mounts: runs once per chat, as the store's own.
      #
      # A store object is shared by every chat, as given.
      class AgentFileStore # :nodoc:
        OPTIONS = %i[tools inline_limit owner mounts history].freeze

        # The declaration that removes a parent's store.
        def self.removed = REMOVED

        # The declaration for the arguments of file_store.
        def self.declare(*args, **options)
          raise ArgumentError, "file_store takes one store at most, not #{args.size}" if args.size > 1

          store = args.empty? ? ChatFiles::Setup::DEFAULT : args.first
          if store.nil?
            raise ArgumentError, 'file_store nil removes the store; it takes no options' unless options.empty?

            return REMOVED
          end

          new(store, **options)
        end

        attr_reader :store, :options

        def initialize(store, **options)
          unknown = options.keys - OPTIONS
          if unknown.any?
            raise ArgumentError,
                  "file_store has no option #{unknown.first}: it takes tools:, inline_limit:, owner:, mounts:, " \
                  'history:'
          end

          check_store(store)
          FileStore::InlineLimit.check(options[:inline_limit]) if options.key?(:inline_limit)
          FileStores::Native::Owner.key(options[:owner]) unless options[:owner].nil? || options[:owner].is_a?(Proc)
          check_mounts(options[:mounts]) if options.key?(:mounts)
          @store = store
          @options = options.freeze
          freeze
        end

        def removed? = equal?(REMOVED)

        # Gives +chat+ its store. Lambdas run in +runtime+ (the agent's
        # runtime context: chat and the inputs), once for this chat. The
        # removing declaration removes the store a chat loaded again got
        # from its files (see RecordExtension).
        def apply(chat, runtime)
          return chat.with_file_store(nil) if removed?

          store = evaluate(@store, runtime)
          options = @options.to_h do |key, value|
            case key
            when :owner then [key, evaluate(value, runtime)]
            when :mounts then [key, value&.transform_values { |mounted| evaluate(mounted, runtime) }]
            else [key, value]
            end
          end
          chat.with_file_store(store, **options)
        end

        private

        def evaluate(value, runtime)
          value.is_a?(Proc) ? runtime.instance_exec(&value) : value
        end

        def check_mounts(mounts)
          return if mounts.nil?

          unless mounts.is_a?(Hash)
            raise ArgumentError,
                  "file_store mounts: must be a Hash of mount name => store, not #{mounts.inspect}"
          end

          mounts.each do |name, store|
            FileStore::Mounts::Table.check_name(name)
            RubyLLM::FileStore.folder_argument(store) if store.is_a?(String)
            next if store == :memory || store.is_a?(Proc) || store.is_a?(String) || store.is_a?(Pathname) ||
                    store.is_a?(RubyLLM::FileStore)

            raise ArgumentError, "file_store mounts: #{name} takes a store, :memory, a folder path or a lambda; " \
                                 "not #{store.inspect}"
          end
        end

        def check_store(store)
          RubyLLM::FileStore.folder_argument(store) if store.is_a?(String)
          return if store.equal?(ChatFiles::Setup::DEFAULT) || store == :memory || store.is_a?(Proc) ||
                    store.is_a?(String) || store.is_a?(Pathname) || store.is_a?(RubyLLM::FileStore) ||
                    store.equal?(:__removed__)

          raise ArgumentError, 'file_store takes a folder path, :memory, a RubyLLM::FileStore, a lambda or nil; ' \
                               "not #{store.inspect}"
        end

        REMOVED = new(:__removed__)
        private_constant :REMOVED
      end
    end
  end
end
