# frozen_string_literal: true

require_relative 'pdf_text_fixtures'

# Where words begin and end as pdftotext reads them: from the glyphs'
# positions, sizes and baselines, not the content stream's strings.
RSpec.describe RubyLLM::FileStore::Converters::PdfText do
  include PdfTextFixtures

  def read(pdf)
    described_class.call(RubyLLM::FileStore::Converters::Input.new(content: pdf, filename: 'doc.pdf',
                                                                   mime_type: 'application/pdf', path: 'doc.pdf'))
  end

  def convert(content) = read(text_pdf(content))

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

  it 'joins words across a space character whose advance word spacing (Tw) takes back, as pdftotext does' do
    # A generator that spaces words by Tc and cancels each space glyph with
    # a negative Tw (Helvetica's space is 0.278 em): "chapt er" is one word,
    # while a space with its advance, or one past 0.03 em, still spaces.
    content = 'BT /F1 10 Tf 72 720 Td (This chap) Tj -2.78 Tw (t er) Tj 0 Tw ( is) Tj ' \
              "-2.4 Tw ( a) Tj ET\n"
    expect(convert(content)).to eq("## Page 1\n\nThis chapter is a\n")
  end

  it 'counts character spacing (Tc) after a glyph as a gap: letters tracked 0.17 em apart are words of one letter' do
    # pdftotext reads an OCR layer's or a heading's wide tracking so; 0.04 em is no gap.
    expect(convert("BT /F1 12 Tf 72 720 Td 2 Tc (Wide) Tj 0 Tc ( words) Tj 0 -20 Td 0.5 Tc (Tight) Tj ET\n"))
      .to eq("## Page 1\n\nW i d e words\nTight\n")
  end

  it 'spaces a line of single characters only where a gap is wider than the narrowest one' do
    # pdftotext reads "x = y" as "x=y" and "1 2  3" (two spaces) as "12 3".
    expect(convert("BT /F1 12 Tf 72 720 Td (x = y) Tj 0 -20 Td (1 2  3) Tj 0 -20 Td (a b cd) Tj ET\n"))
      .to eq("## Page 1\n\nx=y\n12 3\na b cd\n")
  end

  it 'joins a line ending in a hyphen to the next whatever its case, the hyphen dropped, as pdftotext does' do
    expect(convert("BT /F1 12 Tf 72 720 Td (the Trace-) Tj 0 -14 Td (Monkey JIT) Tj ET\n"))
      .to eq("## Page 1\n\nthe TraceMonkey JIT\n")
  end

  it 'joins an accent drawn over a letter to it, whichever is drawn first (TeX draws \'a as an acute, then an a)' do
    # WinAnsi \264 is the spacing acute; kerned back so that its middle is the letter's.
    content = 'BT /F1 12 Tf 72 720 Td [(V) -60 (\264) 444.5 (aclav Havel)] TJ ' \
              "0 -20 Td [(Caf) (e) 444.5 (\\264)] TJ ET\n"
    # The combining acute after the letter, as pdftotext writes it.
    expect(convert(content)).to eq("## Page 1\n\nVa\u0301clav Havel\nCafe\u0301\n")
  end

  it 'reads a word of Arabic letters drawn left to right (in visual order) in the order it is read, as pdftotext' do
    font = '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /FirstChar 65 /LastChar 68 /Widths [500 300 400 450] ' \
           '/Encoding << /Differences [65 /uni0639 /uni0627 /uni0648 /uni0646] >> >>'
    # Drawn ع ا و ن ا from the left: the word انواع.
    pdf = text_pdf("BT /F1 12 Tf 72 720 Td (ABCDB) Tj ET\n", font:)
    expect(read(pdf))
      .to eq("## Page 1\n\n\u0627\u0646\u0648\u0627\u0639\n")
  end

  it "leaves out glyphs drawn off the page's media box, as pdftotext does, glyph by glyph" do
    # Left of the page, above it, and a word running off its right edge at 612.
    content = 'BT /F1 12 Tf 72 720 Td (Visible text) Tj ET BT /F1 12 Tf -500 720 Td (Hidden left) Tj ET ' \
              "BT /F1 12 Tf 72 900 Td (Hidden above) Tj ET BT /F1 12 Tf 600 700 Td (Partly) Tj ET\n"
    expect(convert(content)).to eq("## Page 1\n\nVisible text\nPa\n")
  end
end
