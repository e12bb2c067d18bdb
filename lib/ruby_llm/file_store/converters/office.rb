# frozen_string_literal: true

module RubyLLM
  class FileStore
    module Converters
      # Word, Excel and PowerPoint files (.docx, .xlsx, .pptx and their
      # macro-enabled and template twins) to text, natively and for free.
      # Word: a paragraph per line, headings as Markdown headings, list labels
      # as Word shows them, a table row per line with tabs. Excel: a
      # "## Sheet" heading per sheet, a row per line, dates as dates.
      # PowerPoint: a "## Slide N" heading per slide, its text, tables and
      # speaker notes. Raises ConversionError for a corrupt, encrypted or
      # unsafe file.
      class Office
        extend Callable
        include Local

        # The text of +file+ (content, filename, mime_type), or nil when it
        # is not an Office file.
        def call(file)
          FileStores::Native.office_to_text(file.content.to_s, file.filename.to_s, file.mime_type.to_s)
        end
      end
    end
  end
end
