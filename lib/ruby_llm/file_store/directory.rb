# frozen_string_literal: true

module RubyLLM
  class FileStore # :nodoc:
    # The folder store under the name ruby_llm's own file stores use.
    Directory = NativeDir unless const_defined?(:Directory, false)
  end
end
