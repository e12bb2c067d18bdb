# frozen_string_literal: true

require_relative 'pdf_font_fixtures'

# Words as pdftotext reads them, from fonts without ToUnicode maps: each
# crafted file is one class of the words that differed on real PDFs.
RSpec.describe RubyLLM::FileStore::Converters::PdfText do
  include PdfFontFixtures

  def convert(bytes)
    described_class.call(RubyLLM::FileStore::Converters::Input.new(content: bytes, filename: 'doc.pdf',
                                                                   mime_type: 'application/pdf', path: 'doc.pdf'))
  end

  it "reads a Type 1C (CFF) font through its program's built-in encoding and glyph names" do
    expect(convert(pdf_with_cff_font)).to eq("## Page 1\n\nWords fine x ∈ A.\n")
  end

  it 'reads /Differences on top of the CFF built-in encoding when no base encoding is named' do
    expect(convert(pdf_with_cff_font(encoding: '<< /Type /Encoding /Differences [10 /B] >>')))
      .to eq("## Page 1\n\nWords fine B ∈ A.\n")
  end

  it 'reads ligature glyph names by their components (f_f_i, T_h)' do
    expect(convert(pdf_with_ligature_names)).to eq("## Page 1\n\nThe efficient\n")
  end

  it "places a standard font's glyphs by its own widths where the PDF gives none" do
    expect(convert(pdf_with_standard_font_labels)).to eq("## Page 1\n\nA, B = 0.10 A, B = 0.20\n")
  end

  it 'reads glyph names that are numbers (g80, C6f) as the characters they number, as pdftotext does' do
    decimal = %w[g80 g111 g116 g97 g116 g111 g32 g115 g97 g108 g97 g100]
    expect(convert(pdf_with_numbered_glyph_names(decimal))).to eq("## Page 1\n\nPotato salad\n")
    hexadecimal = %w[C50 C6f C74 C61 C74 C6f C20 C73 C61 C6c C61 C64]
    expect(convert(pdf_with_numbered_glyph_names(hexadecimal))).to eq("## Page 1\n\nPotato salad\n")
  end

  it 'reads a UTF-16 CMap (UniJIS-UTF16-H) with surrogate pairs beyond the BMP' do
    expect(convert(pdf_with_utf16_cmap)).to eq("## Page 1\n\n日本語の𠮷野家\n")
  end

  it "reads a CID font's embedded CMap (cidrange, no ToUnicode) to CIDs of its collection" do
    expect(convert(pdf_with_embedded_cid_cmap)).to eq("## Page 1\n\nHello World\n")
  end

  it 'reads one-byte ToUnicode destinations and a code-to-CID map written as ToUnicode, as pdftotext does' do
    cmap = "/CIDInit /ProcSet findresource begin 12 dict begin begincmap\n" \
           "1 begincodespacerange <00> <FF> endcodespacerange\n" \
           "2 beginbfchar <48> <4A> <65> <61> endbfchar\n" \
           "2 begincidrange <6C> <6C> 122 <6F> <6F> 122 endcidrange\nendcmap end end\n"
    # "Hello" in Helvetica, read through the map as "Jazzz".
    expect(convert(pdf_with_to_unicode(cmap))).to eq("## Page 1\n\nJazzz\n")
  end

  it 'reads codes whose glyph names say nothing as the characters of their numbers, as pdftotext does' do
    font = "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /FirstChar 32 /LastChar 119 /Widths [#{'556 ' * 88}] " \
           '/Encoding << /Type /Encoding /Differences [72 /glyph1 101 /glyph2 108 /glyph3 /glyph4 119 /glyph5] >> >>'
    pdf = text_pdf("BT /F1 12 Tf 72 720 Td (Hello world) Tj ET\n", font:)
    expect(convert(pdf)).to eq("## Page 1\n\nHello world\n")
  end

  it 'reads the UTF-8 and UTF-32 CMaps (UniJIS-UTF8-H, UniJIS-UTF32-H) as their codes say' do
    %w[UniJIS-UTF8-H UniJIS-UTF32-H].each do |cmap|
      expect(convert(pdf_with_unicode_cmap(cmap, '日本語の𠮷野家'))).to eq("## Page 1\n\n日本語の𠮷野家\n"), cmap
    end
  end

  it 'reads the codes a ToUnicode map leaves out through the Adobe collection it builds on (usecmap)' do
    expect(convert(pdf_with_to_unicode_on_a_collection)).to eq("## Page 1\n\nHello World!\n")
  end

  it "reads an Identity CID font without ToUnicode through its embedded program's cmap" do
    expect(convert(pdf_with_identity_truetype)).to eq("## Page 1\n\nPotato salad\n")
  end

  it 'places the glyphs of a font with no widths by the standard font that stands in for it' do
    expect(convert(pdf_with_unmeasured_font)).to eq("## Page 1\n\nMillion Dollar Man\n")
  end

  it 'joins an accent glyph and the letter it is drawn over, in either order, as pdftotext does' do
    expect(convert(pdf_with_accent_glyphs).unicode_normalize(:nfc)).to eq("## Page 1\n\nA naïve café story\n")
  end

  it "reads the base encodings' ligatures fi and fl as their letters, as pdftotext does" do
    pdf = text_pdf("BT /F1 12 Tf 72 720 Td (The \\256rst \\257ow) Tj ET\n",
                   font: '<< /Type /Font /Subtype /Type1 /BaseFont /Times-Roman >>')
    expect(convert(pdf)).to eq("## Page 1\n\nThe first flow\n")
  end

  it 'reads the standard font Symbol through its own encoding when the PDF names none' do
    expect(convert(pdf_with_symbol_font)).to eq("## Page 1\n\nαβγδπθλμ\n")
  end
end
