# frozen_string_literal: true

require 'set'
require_relative 'search'
require_relative 'tools/refusal'
require_relative 'tools/service_error'
require_relative 'tools/database_error'
require_relative 'tools/behaviour'
require_relative 'tools/list_files'
require_relative 'tools/read_file'
require_relative 'tools/search_files'
require_relative 'tools/write_file'
require_relative 'tools/edit_refusal'
require_relative 'tools/edit_file'
require_relative 'tools/delete_file'
require_relative 'tools/move_file'
require_relative 'tools/patch_refusal'
require_relative 'tools/patch_writes'
require_relative 'tools/patch_paths'
require_relative 'tools/apply_patch'

module RubyLLM
  class FileStore
    # The file tools a model gets over a store.
    #
    #   tools = RubyLLM::FileStore::Tools.for(store, tools: %i[read write edit delete])
    #   tool = tools.find { |t| t.name == 'edit_file' }
    #   tool.call('path' => 'notes/plan.md', 'old_text' => 'a', 'new_text' => 'b')
    #
    # With ruby_llm loaded, each tool is a RubyLLM::Tool whose name is exactly
    # the tool's name; without it, the same objects answer name, description,
    # parameters and call on their own.
    module Tools
      DEFAULT_INLINE_LIMIT = 10_000
      DEFAULT_SEARCH_TIMEOUT = 10
      DEFAULT = %i[read write edit].freeze
      GROUPS = {
        read: [ListFiles, ReadFile, SearchFiles],
        write: [WriteFile],
        edit: [EditFile],
        delete: [DeleteFile],
        move: [MoveFile],
        patch: [ApplyPatch]
      }.freeze

      # A file a tool returns as itself (an image, a PDF) when ruby_llm is
      # not loaded; with ruby_llm, tools return a RubyLLM::Attachment.
      FileResult = Struct.new(:path, :filename, :content_type, :content, keyword_init: true)

      # Standalone base for tools when ruby_llm is not loaded.
      StandaloneTool = Class.new

      CLASSES = {} # rubocop:disable Style/MutableConstant -- filled once per tool and base, under CLASSES_LOCK
      CLASSES_LOCK = Mutex.new
      private_constant :CLASSES, :CLASSES_LOCK

      class << self
        # The tools for +store+. +tools+ names groups: :read (list_files,
        # read_file, search_files), :write, :edit, :delete, :move (move_file),
        # :patch (apply_patch);
        # :read is required.
        # +inline_limit+ caps a read_file or list_files result, in characters
        # (false: no cap). +search_timeout+ is the seconds a search_files
        # call may take before it stops and says how far it got.
        def for(store, tools: DEFAULT, inline_limit: DEFAULT_INLINE_LIMIT, search_timeout: DEFAULT_SEARCH_TIMEOUT)
          raise ArgumentError, "a file store is needed, not #{store.inspect}" unless store.is_a?(RubyLLM::FileStore)

          groups = groups_for(tools)
          limit = inline_limit_for(inline_limit)
          unless search_timeout.is_a?(Numeric) && search_timeout.positive?
            raise ArgumentError, "search_timeout must be a positive number of seconds, not #{search_timeout.inspect}"
          end

          groups.flat_map { |group| GROUPS.fetch(group) }.map do |mod|
            class_for(mod).new(store, inline_limit: limit, search_timeout:)
          end
        end

        # The class of one tool: a RubyLLM::Tool subclass when ruby_llm is
        # loaded, else a standalone one. Made once, on first use.
        def class_for(mod)
          base = defined?(RubyLLM::Tool) && RubyLLM::Tool.is_a?(Class) ? RubyLLM::Tool : StandaloneTool
          CLASSES_LOCK.synchronize do
            CLASSES[[mod, base]] ||= Class.new(base) do
              include Behaviour
              include mod
              %i[TOOL_NAME DESCRIPTION PARAMETERS].each { |name| const_set(name, mod.const_get(name)) }
              define_singleton_method(:tool_name) { mod::TOOL_NAME }
              define_singleton_method(:name) { "RubyLLM::FileStore::Tools::#{mod.name.split('::').last}" }
              define_singleton_method(:description) { |*| mod::DESCRIPTION }
            end
          end
        end

        # +args+ with symbol keys.
        def symbolize(args)
          return {} if args.nil?
          raise Refusal, 'the arguments must be an object' unless args.respond_to?(:to_h)

          args.to_h.transform_keys(&:to_sym)
        end

        # The files whose path matches +glob+: without a slash, the file
        # name; with one, the path relative to +folder+.
        def glob_filter(files, glob, folder = '')
          return files if glob.nil? || glob == ''
          raise Refusal, 'glob must be a string, like "*.md"' unless glob.is_a?(String)

          glob = Search.utf8_text(glob, 'glob')
          keep = FileStores::Native.glob_filter(glob, folder.to_s, '', files.map(&:path)).to_set
          files.select { |file| keep.include?(file.path) }
        end

        # +lines+ joined, stopping before +limit+ characters with a note.
        def capped_lines(lines, limit, noun, how)
          return "#{lines.join("\n")}\n" unless limit

          out = +''
          lines.each_with_index do |line, i|
            if out.size + line.size + 1 > limit - 150
              return out << "[#{lines.size - i} more #{noun} not shown: #{how}.]\n"
            end

            out << line << "\n"
          end
          out
        end

        # The text of a file for a model: text files as they are, other
        # formats through the store's converters; nil when none reads them.
        def text_of(store, file, bytes)
          return FileStores::Native.text_from_bytes(bytes) if FileStores::Native.text_content_type?(file.content_type)

          store.converted_text(file, bytes:)
        end

        # The file itself, for a model with vision.
        def attachment(file, bytes)
          if defined?(RubyLLM::Attachment)
            require 'stringio'
            return RubyLLM::Attachment.new(StringIO.new(bytes), filename: file.filename)
          end

          FileResult.new(path: file.path, filename: file.filename, content_type: file.content_type, content: bytes)
        end

        private

        def groups_for(tools)
          groups = Array(tools)
          unknown = groups.reject { |group| GROUPS.key?(group.is_a?(String) ? group.to_sym : group) }
          if unknown.any?
            raise ArgumentError, "unknown file tools #{unknown.map(&:inspect).join(', ')}: choose from :read, " \
                                 ':write, :edit, :delete, :move and :patch'
          end

          groups = groups.map(&:to_sym).uniq
          unless groups.include?(:read)
            raise ArgumentError, 'tools: must include :read (list_files, read_file, search_files): older attachments ' \
                                 'and long tool results reach the model only through it'
          end
          groups
        end

        def inline_limit_for(limit)
          return nil if limit == false
          return limit if limit.is_a?(Integer) && limit >= 1_000

          raise ArgumentError,
                "inline_limit must be false or a whole number of characters from 1000, not #{limit.inspect}"
        end
      end
    end
  end
end
