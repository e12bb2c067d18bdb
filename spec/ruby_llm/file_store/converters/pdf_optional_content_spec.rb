# frozen_string_literal: true

require_relative 'pdf_optional_fixtures'

# Optional content as pdftotext reads it: what a group the document's
# default configuration turns off holds is not shown.
RSpec.describe RubyLLM::FileStore::Converters::PdfText do
  include PdfOptionalFixtures

  def text_of(bytes)
    described_class.call(RubyLLM::FileStore::Converters::Input.new(content: bytes, filename: 'doc.pdf',
                                                                   mime_type: 'application/pdf', path: 'doc.pdf'))
  end

  it 'leaves out marked content, forms and annotations in optional content groups turned off' do
    text = text_of(pdf_with_optional_content)
    %w[one two three four five six].each { |n| expect(text).to include("Shown #{n}") }
    expect(text).not_to include('Hidden')
  end

  it 'hides what marked content nested thousands deep holds, and shows what follows' do
    text = text_of(pdf_with_deep_marked_content(3000))
    expect(text).to include('Shown after')
    expect(text).not_to include('Hidden')
  end
end
