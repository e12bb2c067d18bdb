# frozen_string_literal: true

require_relative 'pdf_text_fixtures'

# Words glued, split or dropped differently from pdftotext while the
# characters are right: each crafted file is one class found on real PDFs,
# and each expectation is what pdftotext 22.12 prints for it.
RSpec.describe RubyLLM::FileStore::Converters::PdfText do
  include PdfTextFixtures

  def read(pdf)
    described_class.call(RubyLLM::FileStore::Converters::Input.new(content: pdf, filename: 'doc.pdf',
                                                                   mime_type: 'application/pdf', path: 'doc.pdf'))
  end

  it 'ends a word at a glyph that starts within 0.1 em of the one before it, as pdftotext does' do
    # Helvetica scaled to a tenth of its height's width, tracked 2 points
    # apart: "l" is 0.9 points wide at a 40-point size, so the glyph after
    # it starts 2.9 points on (a printer's colour bars in freeculture.pdf).
    pdf = text_pdf("BT /F1 1 Tf 4 0 0 40 72 700 Tm 0.5 Tc (WlWlWl) Tj ET\n")
    expect(read(pdf)).to eq("## Page 1\n\nWl W l W l\n")
  end

  it 'keeps a repeated letter squeezed narrower than 0.1 em, which starts where the first one ends' do
    # Not a copy drawn on top of it (fake bold): pdftotext reads issue6605.pdf's "suggest" so.
    pdf = text_pdf("BT /F1 1 Tf 10 0 0 58 72 700 Tm (suggest) Tj ET\n")
    expect(read(pdf)).to eq("## Page 1\n\nsuggest\n")
  end

  it "reads code 32 drawn with a glyph no table names (TeX's visible space) as a space" do
    font = '<< /Type /Font /Subtype /Type1 /BaseFont /Courier /Encoding << /Differences [32 /visiblespace] >> >>'
    pdf = text_pdf("BT /F1 12 Tf 72 720 Td (\"! Missing @x in change\") Tj ET\n", font:)
    expect(read(pdf)).to eq("## Page 1\n\n\"! Missing @x in change\"\n")
  end

  it 'spaces the letters of each run of a line apart by 1.5 em by their own narrowest gap' do
    # "s ed m" tracked by 3 points, then "l e t." 100 points on: pdftotext
    # reads two lines, each spaced by its narrowest gap.
    content = 'BT /F1 10 Tf 72 720 Td 3 Tc (s) Tj 0 Tc (ed) Tj 3 Tc ( m) Tj 0 Tc 100 0 Td 3 Tc (l e t.) Tj ET'
    expect(read(text_pdf("#{content}\n"))).to eq("## Page 1\n\ns ed m l e t.\n")
  end

  it 'counts a letter read with its combining accent as one character of a line of single characters' do
    # /ecaron reads "e" and a combining caron; tracked apart as "s e  n ě",
    # pdftotext (reading one character) has "se ně".
    font = '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica ' \
           '/Encoding << /BaseEncoding /WinAnsiEncoding /Differences [65 /ecaron] >> >>'
    pdf = text_pdf("BT /F1 10 Tf 72 720 Td (Tracked:) Tj 0 -20 Td 3 Tc (se nA) Tj ET\n", font:)
    expect(read(pdf).unicode_normalize(:nfc)).to eq("## Page 1\n\nTracked:\nse n\u011b\n")
  end

  it "reads a marked-content span's /ActualText in place of its glyphs, as pdftotext does" do
    content = 'BT /F1 12 Tf 72 720 Td (A) Tj /Span <</ActualText (fi)>> BDC (X) Tj EMC (ne) Tj ' \
              "/Span << /ActualText <FEFF200B> >> BDC ( ) Tj EMC (Bullet) Tj ET\n"
    expect(read(text_pdf(content))).to eq("## Page 1\n\nAfine\u200BBullet\n")
  end

  it 'keeps the hyphen of a line followed by a page number far below it, as pdftotext keeps it' do
    content = "BT /F1 12 Tf 72 720 Td (the last word is famil-) Tj 0 -14 Td (iar and so) Tj 0 -14 Td (cre-) Tj ET\n" \
              "BT /F1 10 Tf 300 40 Td (172) Tj ET\n"
    expect(read(text_pdf(content))).to eq("## Page 1\n\nthe last word is familiar and so\ncre-\n\n172\n")
  end
end
