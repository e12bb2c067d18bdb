# frozen_string_literal: true

module RubyLLM
  class FileStore
    module Converters
      # The built-in converters that run on this machine, for free, as soon
      # as a chat keeps a file (Office, PdfText, Text) include it.
      module Local
        def local? = true
      end
    end
  end
end
