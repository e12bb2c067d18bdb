# frozen_string_literal: true

# The errors of file stores.
module RubyLLM
  # Raised when required configuration is missing, such as a store that needs
  # Rails. Defined here only when ruby_llm has not defined it.
  ConfigurationError = Class.new(StandardError) unless const_defined?(:ConfigurationError, false)

  # Raised by FileStore#find, #read and #text when there is no file at a path.
  FileNotFoundError = Class.new(StandardError) unless const_defined?(:FileNotFoundError, false)

  # Raised by a store's write when a file would not fit. Its message goes to
  # the model, so it says what to do: "This chat's files are full: delete or
  # overwrite files."
  FileStoreFullError = Class.new(StandardError) unless const_defined?(:FileStoreFullError, false)

  # ruby_llm's base error; this stand-in, when ruby_llm is not loaded (yet),
  # is the class ruby_llm reopens when it loads (the same superclass).
  Error = Class.new(StandardError) unless const_defined?(:Error, false)

  unless const_defined?(:FileExistsError, false)
    # Raised by FileStore#move when something is at the new path already: a
    # move never overwrites. Its message goes to the model.
    class FileExistsError < Error
      # The path that exists.
      attr_reader :path

      def initialize(path)
        @path = path
        super("#{path} already exists, and a move never overwrites: choose another new_path, or delete #{path} " \
              'first if you mean to replace it.')
      end
    end
  end

  class FileStore # :nodoc:
    # Native code failed in a way it should not (a panic). The operation did
    # not happen; the process is unharmed. Please report it.
    InternalError = Class.new(StandardError) unless const_defined?(:InternalError, false)

    # A converter could not turn a file into text.
    ConversionError = Class.new(StandardError) unless const_defined?(:ConversionError, false)

    unless const_defined?(:HistoryError, false)
      # Raised by a store's history methods (versions, rewind...) on a store
      # made without history:, and by rewind when a version it needs is no
      # longer kept (nothing is rewound then). For the developer, not the
      # model: the model has no history tool.
      class HistoryError < RubyLLM::Error; end
    end

    unless const_defined?(:ReadOnlyError, false)
      # Raised by every change (write, delete, delete_folder, move, an edit)
      # on a store made with read_only: true. Its message goes to the model
      # and says what to do instead.
      class ReadOnlyError < RubyLLM::Error
        # The path the change was refused for.
        attr_reader :path

        def initialize(path)
          @path = path
          super("#{path} is read-only. Write your own copy elsewhere, such as notes/#{File.basename(path)}.")
        end
      end
    end
  end

  module FileStores
    module Native
      # Raised at the call of with_file_store (and of an agent's file_store,
      # with_code_execution) when the loaded ruby_llm has no adapter: it
      # names the ruby_llm version and what it lacks.
      class IncompatibleRubyLLMError < StandardError; end
    end
  end
end
