# frozen_string_literal: true

module RubyLLM
  class FileStore
    module Converters
      # Reads a file as it is, for types that hold plain text without saying
      # so (like application/x-subrip). Register it as +Text+ or +Text.new+. Invalid UTF-8 is replaced; UTF-16
      # and UTF-32 with a byte-order mark are transcoded.
      class Text
        extend Callable
        include Local

        # The text of +file+ (its content).
        def call(file)
          FileStores::Native.text_from_bytes(file.content.to_s.b)
        end
      end
    end
  end
end
