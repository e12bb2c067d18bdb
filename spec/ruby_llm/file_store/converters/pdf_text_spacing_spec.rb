# frozen_string_literal: true

require_relative 'pdf_text_fixtures'

# Where words begin and end as pdftotext reads them: from the glyphs'
# positions, sizes and baselines, not the content stream's strings.
RSpec.describe RubyLLM::FileStore::Converters::PdfText do
  include PdfTextFixtures

  def convert(content)
    described_class.call(RubyLLM::FileStore::Converters::Input.new(content: text_pdf(content), filename: 'doc.pdf',
                                                                   mime_type: 'application/pdf', path: 'doc.pdf'))
  end

  it 'ends a word where a subscript returns to the base size past a small gap (TeX\'s \\scriptspace)' do
    # "f" then a lowered "1" at 8 points touching it, then "(x)" 0.08 em on:
    # pdftotext reads "f1 (x)"; 0.08 em within one size is no space ("xy").
    content = 'BT /F1 12 Tf 72 720 Td (f) Tj /F1 8 Tf -3 Ts (1) Tj 0 Ts /F1 12 Tf ' \
              "[-80 (\\(x\\) = x) -80 (y)] TJ ET\n"
    expect(convert(content)).to eq("## Page 1\n\nf1 (x) = xy\n")
  end

  it 'spaces two glyphs of one size more than 0.1 em apart, as pdftotext does' do
    # Kerned 0.12 em apart (a justified line's narrow space), then 0.08 em.
    expect(convert("BT /F1 12 Tf 72 720 Td [(Letter) -120 (spaced) -80 (words)] TJ ET\n"))
      .to eq("## Page 1\n\nLetter spacedwords\n")
  end
end
