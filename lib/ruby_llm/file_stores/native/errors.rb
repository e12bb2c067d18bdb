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

  class FileStore # :nodoc:
    # Native code failed in a way it should not (a panic). The operation did
    # not happen; the process is unharmed. Please report it.
    InternalError = Class.new(StandardError) unless const_defined?(:InternalError, false)

    # A converter could not turn a file into text.
    ConversionError = Class.new(StandardError) unless const_defined?(:ConversionError, false)
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
