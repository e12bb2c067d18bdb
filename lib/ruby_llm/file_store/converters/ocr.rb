# frozen_string_literal: true

module RubyLLM
  class FileStore
    module Converters
      # Reads PDFs, scans and photos with RubyLLM.ocr, which costs a request:
      # it runs when the model reads the file, never for search.
      #
      #   config.file_converters['image/*'] = RubyLLM::FileStore::Converters::OCR.new
      #   config.file_converters['application/pdf'] =
      #     RubyLLM::FileStore::Converters::OCR.new(model: 'mistral-ocr-latest')
      class OCR
        extend Callable

        attr_reader :options

        # +options+ are passed to RubyLLM.ocr as they are (model:, provider:...).
        def initialize(**options)
          @options = options.freeze
        end

        # The file's markdown from RubyLLM.ocr. Raises
        # RubyLLM::ConfigurationError when this RubyLLM has no OCR.
        def call(file)
          unless RubyLLM.respond_to?(:ocr)
            raise RubyLLM::ConfigurationError,
                  'RubyLLM::FileStore::Converters::OCR needs RubyLLM.ocr, which this RubyLLM does not have: ' \
                  'load ruby_llm 2.0 or later, or register another converter for this type'
          end

          markdown_of(RubyLLM.ocr(file, **options))
        end

        # False: each file read costs a request, so OCR runs when the model
        # reads the file, never as soon as a chat keeps it.
        def local?
          false
        end

        private

        def markdown_of(result)
          %i[markdown content text].each { |reader| return result.public_send(reader) if result.respond_to?(reader) }
          result&.to_s
        end
      end
    end
  end
end
