# frozen_string_literal: true

module RubyLLM
  class FileStore
    module Converters
      # Lets a converter class be registered as itself or as an instance:
      # every built-in converter extends it, so +PdfText+, +PdfText.new+,
      # +OCR.new(model: ...)+ and +Office+ all answer +call(file)+ and
      # +local?+ the same way.
      #
      #   config.file_converters['application/pdf'] = [RubyLLM::FileStore::Converters::PdfText.new,
      #                                                RubyLLM::FileStore::Converters::OCR.new]
      module Callable
        # The text of +file+, as a new instance with no options gives it.
        def call(file)
          new.call(file)
        end

        # Whether a new instance with no options is local (free).
        def local?
          new.local?
        end
      end
    end
  end
end
