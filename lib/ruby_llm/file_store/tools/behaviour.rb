# frozen_string_literal: true

require 'json'

module RubyLLM
  class FileStore
    module Tools
      # What every file tool does: holds its store, takes string or symbol
      # keys, and answers failures the model can act on as { error: '...' }
      # instead of raising. Programming errors in the store still raise.
      #
      # Each tool module (ListFiles, ReadFile, ...) defines TOOL_NAME,
      # DESCRIPTION, PARAMETERS (a JSON schema) and execute.
      module Behaviour # :nodoc:
        # Errors whose message the model can act on.
        MODEL_ERRORS = [Refusal, ArgumentError, RubyLLM::FileNotFoundError, RubyLLM::FileStoreFullError,
                        RubyLLM::FileStore::ConversionError, RubyLLM::FileStore::ReadOnlyError,
                        RubyLLM::FileExistsError].freeze

        attr_reader :store, :inline_limit, :search_timeout

        # The JSON schema of a tool's arguments: an object with +properties+,
        # +required+ of them required (nil: none), and no others.
        def self.arguments(required, **properties)
          { type: 'object', properties:, required:, additionalProperties: false }.compact.freeze
        end

        # Tool classes get the inline_limit macro (long results are saved in
        # the chat's files); read_file and search_files opt out with it.
        def self.included(tool_class)
          super
          tool_class.extend(FileStore::InlineLimit) unless tool_class.singleton_class.include?(FileStore::InlineLimit)
        end

        def initialize(store, inline_limit: Tools::DEFAULT_INLINE_LIMIT, search_timeout: Tools::DEFAULT_SEARCH_TIMEOUT)
          super()
          @store = store
          @inline_limit = inline_limit
          @search_timeout = search_timeout
        end

        # The tool's name, as the model calls it.
        def name = self.class::TOOL_NAME

        # What the model is told the tool does.
        def description = self.class::DESCRIPTION

        # The JSON schema of the tool's arguments.
        def parameters = self.class::PARAMETERS

        # ruby_llm reads the schema under this name (2.0)...
        def parameters_schema = parameters

        # ... or this one (1.16).
        def params_schema = parameters

        # What the model sees for a call with +args+ (a Hash, string or symbol
        # keys; given bare, Ruby passes string keys as keywords too). ruby_llm
        # also passes tool_call:, which these tools do not need.
        def call(args = nil, **keywords)
          keywords.delete(:tool_call)
          args = Tools.symbolize(args.nil? ? keywords : args)
          unknown = args.keys - self.class::PARAMETERS[:properties].keys.map(&:to_sym)
          raise Refusal, "#{name} has no argument #{unknown.first}" if unknown.any?

          FileStores::Native::History.acting(name) { execute(**args) }
        rescue *MODEL_ERRORS => e
          { error: e.message }
        rescue Errno::EACCES, Errno::EPERM => e
          { error: denied_message(e) }
        rescue StandardError => e
          raise unless DatabaseError.match?(e)

          { error: DatabaseError.message_for(e) }
        end

        # The tool's name and its store, for the console.
        def inspect = "#<#{name} tool on #{store.inspect}>"

        private

        def path_argument(path, name = 'path')
          raise Refusal, "#{name} is required: give a file path like notes/plan.md" if path.nil? || path == ''
          raise Refusal, "#{name} must be a string, like notes/plan.md" unless path.is_a?(String)

          FileStore.path(path)
        end

        def sha256(bytes) = FileStores::Native.sha256_hex(bytes)

        # A file or folder this process may not open: its permissions were
        # taken (code can chmod what it made), which the model can undo.
        def denied_message(error)
          what = error.message.sub(/\A(Permission denied|Operation not permitted) - /, '')
          "Permission denied: #{what}. Its permissions shut the file tools out: run_code can give them back " \
            '(chmod -R u+rwX on it) or remove it.'
        end

        # The digest of a file now: the store's, or one made from its bytes.
        def current_digest(file)
          file.digest || sha256(store.read(file.path))
        end

        # Refuses to change +path+ unless the model read it at its current
        # version. A new file needs no read. A read-only store refuses first,
        # so the model does not read a file it cannot change anyway: in a
        # tree of stores (Mounts), the store that holds +path+.
        def check_read_before_change(path)
          raise FileStore::ReadOnlyError, path if read_only_at?(path)

          file = store[path]
          return nil unless file

          read = store.read_digest(path)
          raise Refusal, "You have not read #{path}. Read it with read_file first." if read.nil?
          raise Refusal, "#{path} changed since you read it. Read it again." unless read == current_digest(file)

          file
        end

        # Whether the store that holds +path+ refuses every change.
        def read_only_at?(path)
          holder = store
          holder, path = holder.store_for(path) while holder.is_a?(FileStore::Mounts)
          holder.read_only?
        end

        # Whether +path+ is, in a tree of stores, the folder of a mount or one
        # on the way to one: a folder even while the mount has no files.
        def mount_folder?(path)
          return false unless store.is_a?(FileStore::Mounts)

          store.mounts.each_key.any? { |name| name == path || name.start_with?("#{path}/") }
        end

        def lines_in(bytes)
          bytes.count("\n") + (bytes.empty? || bytes.end_with?("\n") ? 0 : 1)
        end
      end
    end
  end
end
