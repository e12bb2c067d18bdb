# frozen_string_literal: true

module RubyLLM
  class FileStore
    module Converters
      # A PDF's text layer, natively and for free: every page after a
      # "## Page N" heading. Returns nil for a scan, or a text layer that is
      # only garbage (no page with enough word characters), so the next
      # converter, such as OCR, runs. Opt-in: register it for
      # 'application/pdf'. Raises ConversionError for a broken PDF, or one
      # encrypted with a password other than the empty one. +PdfText+ and
      # +PdfText.new+ are the same converter:
      #
      #   config.file_converters['application/pdf'] = [
      #     RubyLLM::FileStore::Converters::PdfText.new,
      #     RubyLLM::FileStore::Converters::OCR.new(model: 'mistral-ocr-latest')
      #   ]
      class PdfText
        extend Callable
        include Local

        # The text of +file+ (content, filename), or nil for a scan.
        def call(file)
          FileStores::Native.pdf_to_text(file.content.to_s, file.filename.to_s)
        end
      end
    end
  end
end
