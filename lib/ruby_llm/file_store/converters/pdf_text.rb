# frozen_string_literal: true

module RubyLLM
  class FileStore
    module Converters
      # A PDF's text layer, natively and for free: every page after a
      # "## Page N" heading. Returns nil for a scan, or a text layer that is
      # only garbage (no page with enough word characters), so the next
      # converter, such as OCR, runs. Opt-in: register it for
      # 'application/pdf'. Raises ConversionError for a broken PDF, or one
      # encrypted with a password other than the empty one.
      module PdfText
        class << self
          # The text of +file+ (content, filename), or nil for a scan.
          def call(file)
            FileStores::Native.pdf_to_text(file.content.to_s, file.filename.to_s)
          end

          def local?
            true
          end
        end
      end
    end
  end
end
