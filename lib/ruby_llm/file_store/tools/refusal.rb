# frozen_string_literal: true

module RubyLLM
  class FileStore
    module Tools
      # A failure the model can act on: the tool answers { error: message }.
      class Refusal < StandardError; end # :nodoc:
    end
  end
end
