# frozen_string_literal: true

module RubyLLM
  class FileStore
    class CodeExecution
      # run_code: the tool a model calls to run code over its files. With
      # ruby_llm loaded it is a RubyLLM::Tool named exactly run_code; without
      # it, the same object answers name, description, parameters and call.
      module Tool # :nodoc: all
        TOOL_NAME = 'run_code'

        IN_PLACE = <<~TEXT.strip
          Runs a program in a sandbox, in the folder that holds your files: it reads them where they are, and
          what it writes, changes or deletes there stays in your files. Print what you need to see; the result
          gives stdout, stderr, the exit status and the paths of files created or changed (not their content:
          read them with read_file). Read a changed file again before editing it. No network.
        TEXT
        STAGED = <<~TEXT.strip
          Runs a program in a sandbox, in an empty folder. Name the files and folders your code reads in files
          (find them with list_files); they are copied in at the same paths. Files it writes or changes are saved
          to your files when it ends; deleting one there does not delete it from your files. Print what you need
          to see; the result gives stdout, stderr, the exit status and the paths saved (read them with
          read_file). Read a changed file again before editing it. No network.
        TEXT

        FILES = 'Paths of files and folders the code reads, like ["data/sales.csv", "images"].'

        # What the description of a run over a tree of stores adds: which
        # mounts are read-only, which are copied in only when named, and
        # which are there whole.
        def self.tree_words(layout)
          words = []
          read_only = layout.read_only_names
          unless read_only.empty?
            words << "#{are(read_only)} read-only: a write there fails with 'Read-only file system'; write your " \
                     'copies elsewhere.'
          end
          staged = layout.staged_names
          if layout.in_place? && !staged.empty?
            words << "The files under #{staged.join(', ')} are not in the folder until named: list those your " \
                     'code reads in files to have them copied in; what it writes under them is saved when it ends.'
          end
          bound = layout.mounts.reject { |part| part.kind == :staged }.map(&:name)
          words << "#{are(bound)} there whole, with no need to name them." if !layout.in_place? && !bound.empty?
          words
        end

        def self.are(names) = "#{names.join(', ')} #{names.size == 1 ? 'is' : 'are'}"

        # The files parameter's description over a tree whose default store
        # works in place: only the staged mounts' files are named.
        def self.tree_files(layout)
          staged = layout.staged_names
          "Paths of files and folders under #{staged.map { |name| "#{name}/" }.join(', ')} the code reads, like " \
            "[\"#{staged.first}/notes.md\"]: they are copied in. Files elsewhere are in the folder already."
        end

        # The tool over +runner+, as a RubyLLM::Tool when ruby_llm is loaded.
        def self.for(runner)
          tool_class.new(runner)
        end

        def self.tool_class
          base = defined?(RubyLLM::Tool) && RubyLLM::Tool.is_a?(Class) ? RubyLLM::Tool : Tools::StandaloneTool
          @classes ||= {}
          @classes[base] ||= Class.new(base) do
            include Behaviour

            define_singleton_method(:tool_name) { TOOL_NAME }
            define_singleton_method(:name) { 'RubyLLM::FileStore::CodeExecution::RunCode' }
            define_singleton_method(:description) { |*| STAGED }
          end
        end

        # What a run_code tool does.
        module Behaviour # :nodoc:
          attr_reader :runner

          def initialize(runner)
            super()
            @runner = runner
          end

          def name = TOOL_NAME

          def description
            layout = runner.layout
            [layout.in_place? ? IN_PLACE : STAGED, *Tool.tree_words(layout)].join(' ')
          end

          def parameters
            properties = {
              language: { type: 'string', enum: runner.languages.keys, description: 'The language of code.' },
              code: { type: 'string', description: 'The whole program. It runs with the folder as its working ' \
                                                   'directory.' }
            }
            files = files_description
            properties[:files] = { type: 'array', items: { type: 'string' }, description: files } if files
            { type: 'object', properties:, required: %w[language code], additionalProperties: false }
          end

          # What files takes, or nil when every file is in the folder.
          def files_description
            layout = runner.layout
            return FILES unless layout.in_place?

            layout.staged? ? Tool.tree_files(layout) : nil
          end

          def parameters_schema = parameters
          # ruby_llm 1.16's name for it.
          def params_schema = parameters

          # The result for a call with +args+ (string or symbol keys), as a
          # Hash; { error: } for what the model can fix.
          def call(args = nil, **keywords)
            keywords.delete(:tool_call)
            args = Tools.symbolize(args.nil? ? keywords : args)
            unknown = args.keys - %i[language code files]
            raise Tools::Refusal, "run_code has no argument #{unknown.first}" if unknown.any?

            runner.run(language: args[:language], code: args[:code], files: args[:files]).to_h
          rescue Tools::Refusal, ArgumentError => e
            { error: e.message }
          rescue StandardError => e
            raise unless Tools::DatabaseError.match?(e)

            { error: Tools::DatabaseError.message_for(e) }
          end

          def inspect = "#<run_code tool on #{runner.store.inspect}>"
        end
      end
    end
  end
end
