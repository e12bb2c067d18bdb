# frozen_string_literal: true

require_relative 'pdf_text_fixtures'

# Text drawn again on top of itself, as pdftotext reads it: the copy is
# dropped however much was drawn between the two (fake bold draws each
# word twice in a row; some generators draw a whole block twice).
RSpec.describe RubyLLM::FileStore::Converters::PdfText do
  include PdfTextFixtures

  def convert(bytes)
    described_class.call(RubyLLM::FileStore::Converters::Input.new(content: bytes, filename: 'doc.pdf',
                                                                   mime_type: 'application/pdf', path: 'doc.pdf'))
  end

  it 'reads once a block of lines drawn twice at the same place' do
    lines = (1..8).map { |i| "Line #{i} of the block that the generator wrote out twice." }
    block = "BT /F1 10 Tf 72 700 Td #{lines.map { |l| "(#{l}) Tj 0 -12 Td" }.join(' ')} ET\n"
    text = convert(text_pdf("#{block}BT /F1 10 Tf 72 580 Td (After the block.) Tj ET\n#{block}"))
    expect(text).to eq("## Page 1\n\n#{lines.join("\n")}\nAfter the block.\n")
  end
end
