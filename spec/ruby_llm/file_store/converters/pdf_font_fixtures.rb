# frozen_string_literal: true

require_relative 'pdf_text_fixtures'
require_relative 'cff_fixture'
require_relative 'truetype_fixture'

# PDFs whose words depend on how their fonts are read: a Type 1C (CFF)
# program's built-in encoding and glyph names, ligature glyph names, and the
# standard fonts' own widths where a PDF gives none.
module PdfFontFixtures
  include PdfTextFixtures

  # The glyphs of the CFF font, codes from 1, and "Words fine x ∈ A." in them.
  CFF_GLYPHS = %w[W o r d s space f_i n e x element A period].freeze
  CFF_TEXT = '<0102030405 06 070809 06 0A 06 0B 06 0C0D>'

  # A page shown in an embedded Type 1C font with no ToUnicode map; its
  # /Encoding is +encoding+ (none: the program's built-in one).
  def pdf_with_cff_font(encoding: nil)
    font = '<< /Type /Font /Subtype /Type1 /BaseFont /ABCDEF+Fixture ' \
           "/FirstChar 1 /LastChar 13 /Widths [#{(['500'] * 13).join(' ')}] " \
           "#{encoding ? "/Encoding #{encoding} " : ''}" \
           '/FontDescriptor << /Type /FontDescriptor /FontName /ABCDEF+Fixture /Flags 4 ' \
           '/FontBBox [0 0 1000 1000] /ItalicAngle 0 /Ascent 800 /Descent -200 /CapHeight 700 ' \
           '/StemV 80 /FontFile3 6 0 R >> >>'
    program = pdf_stream(CffFixture.new(CFF_GLYPHS).bytes, '/Subtype /Type1C ', deflate: true)
    text_pdf("BT /F1 12 Tf 72 720 Td #{CFF_TEXT} Tj ET\n", font:, extra: [program])
  end

  # Helvetica whose /Differences name ligatures by their components
  # (`f_f_i`, `T_h`), shown as "The efficient".
  def pdf_with_ligature_names
    font = '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica ' \
           '/Encoding << /Type /Encoding /BaseEncoding /WinAnsiEncoding /Differences [128 /f_f_i /T_h] >> >>'
    text_pdf("BT /F1 12 Tf 72 720 Td (\\201e e\\200cient) Tj ET\n", font:)
  end

  # Times-Roman without /Widths, two labels 40 points apart at 8 points: by
  # Times' own widths 2.4 points lie between them; at a guessed half em each
  # they overlap.
  def pdf_with_standard_font_labels
    text_pdf("BT /F1 8 Tf 35 50 Td (A, B = 0.10) Tj 40 0 Td (A, B = 0.20) Tj ET\n",
             font: '<< /Type /Font /Subtype /Type1 /BaseFont /Times-Roman >>')
  end

  # Helvetica whose /Differences name every glyph by a number, from code 1:
  # +names+ (`g80` or `C50` for "P"), shown as "Potato salad".
  def pdf_with_numbered_glyph_names(names)
    font = '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /FirstChar 1 /LastChar 12 ' \
           "/Widths [#{(['556'] * 12).join(' ')}] " \
           "/Encoding << /Type /Encoding /Differences [1 #{names.map { |n| "/#{n}" }.join(' ')}] >> >>"
    text_pdf("BT /F1 12 Tf 72 720 Td <0102030405060708090A0B0C> Tj ET\n", font:)
  end

  # A CID font whose predefined CMap is UniJIS-UTF16-H: codes are UTF-16,
  # 𠮷 (beyond the BMP) a surrogate pair, shown as "日本語の𠮷野家".
  def pdf_with_utf16_cmap
    font = '<< /Type /Font /Subtype /Type0 /BaseFont /KozMinPr6N-Regular /Encoding /UniJIS-UTF16-H ' \
           '/DescendantFonts [<< /Type /Font /Subtype /CIDFontType0 /BaseFont /KozMinPr6N-Regular ' \
           '/CIDSystemInfo << /Registry (Adobe) /Ordering (Japan1) /Supplement 6 >> >>] >>'
    text_pdf("BT /F1 12 Tf 72 720 Td <65E5672C8A9E306ED842DFB791CE5BB6> Tj ET\n", font:)
  end

  # An Identity-H CID font of Ordering Identity with no ToUnicode map whose
  # embedded TrueType program's cmap names its glyphs; the page shows glyph
  # ids, "Potato salad".
  def pdf_with_identity_truetype
    chars = 'Poat sld'.chars
    groups = chars.each_with_index.map { |c, i| [c.ord, c.ord, i + 1] }.sort
    program = TruetypeFixture.font(glyphs: chars.size + 1, cmap: TruetypeFixture.format12_cmap(groups))
    gids = 'Potato salad'.chars.map { |c| format('%04X', chars.index(c) + 1) }.join
    font = '<< /Type /Font /Subtype /Type0 /BaseFont /ABCDEF+Fixture /Encoding /Identity-H ' \
           '/DescendantFonts [<< /Type /Font /Subtype /CIDFontType2 /BaseFont /ABCDEF+Fixture ' \
           '/CIDSystemInfo << /Registry (Adobe) /Ordering (Identity) /Supplement 0 >> /DW 500 ' \
           '/CIDToGIDMap /Identity /FontDescriptor << /Type /FontDescriptor /FontName /ABCDEF+Fixture ' \
           '/Flags 4 /FontFile2 6 0 R >> >>] >>'
    text_pdf("BT /F1 12 Tf 72 720 Td <#{gids}> Tj ET\n", font:, extra: [pdf_stream(program, deflate: true)])
  end

  # A font that is none of the standard ones (Garamond, serif by its
  # flags), with no /Widths: "Million Dollar Man", a word per Td, 3 points
  # apart by Times' widths (which pdftotext measures it by) and overlapping
  # at a guessed half em each.
  def pdf_with_unmeasured_font
    font = '<< /Type /Font /Subtype /TrueType /BaseFont /Garamond /Encoding /WinAnsiEncoding ' \
           '/FontDescriptor << /Type /FontDescriptor /FontName /Garamond /Flags 34 >> >>'
    text_pdf("BT /F1 12 Tf 72 720 Td (Million) Tj 41 0 Td (Dollar) Tj 35 0 Td (Man) Tj ET\n", font:)
  end

  # Accents drawn over letters as separate glyphs: TeX's dieresis, then the
  # i under it; an acute after the e it is moved back over. "A naïve café story".
  def pdf_with_accent_glyphs
    text_pdf("BT /F1 12 Tf 72 720 Td [(A na) (\\250) 278 (ive caf) (e) 389 (\\264) 56 ( story)] TJ ET\n",
             font: '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>')
  end

  # The standard font Symbol with no /Encoding: its own encoding gives
  # Greek for Latin codes.
  def pdf_with_symbol_font
    text_pdf("BT /F1 12 Tf 72 720 Td (abgdpqlm) Tj ET\n",
             font: '<< /Type /Font /Subtype /Type1 /BaseFont /Symbol >>')
  end

  # A Type0 font of Adobe-Japan1 whose embedded CMap (object 6, no
  # ToUnicode map) makes one-byte codes CIDs: 01-1A capitals (CID 34 on),
  # 20 the space (CID 1), 21-3A small letters (CID 66 on). Shown as
  # "Hello World".
  def pdf_with_embedded_cid_cmap
    cmap = "/CIDInit /ProcSet findresource begin 12 dict begin begincmap\n" \
           "/CMapName /Fixture-H def /CMapType 1 def\n" \
           "1 begincodespacerange <00> <FF> endcodespacerange\n" \
           "3 begincidrange <01> <1A> 34 <20> <20> 1 <21> <3A> 66 endcidrange\nendcmap end end\n"
    font = '<< /Type /Font /Subtype /Type0 /BaseFont /MS-Mincho /Encoding 6 0 R ' \
           '/DescendantFonts [<< /Type /Font /Subtype /CIDFontType2 /BaseFont /MS-Mincho ' \
           '/CIDSystemInfo << /Registry (Adobe) /Ordering (Japan1) /Supplement 2 >> /DW 500 >>] >>'
    codes = 'Hello World'.chars.map { |c| format('%02X', c == ' ' ? 0x20 : c.ord - 0x40) }.join
    program = pdf_stream(cmap, '/Type /CMap /CMapName /Fixture-H ')
    text_pdf("BT /F1 12 Tf 72 720 Td <#{codes}> Tj ET\n", font:, extra: [program])
  end

  # A CID font of Adobe-Japan1 whose predefined CMap is +cmap+
  # (UniJIS-UTF8-H, UniJIS-UTF32-H) showing +text+, its codes that
  # encoding's bytes.
  def pdf_with_unicode_cmap(cmap, text)
    bytes = cmap.include?('UTF32') ? text.unpack('U*').pack('N*') : text.b
    font = "<< /Type /Font /Subtype /Type0 /BaseFont /KozMinPr6N-Regular /Encoding /#{cmap} " \
           '/DescendantFonts [<< /Type /Font /Subtype /CIDFontType0 /BaseFont /KozMinPr6N-Regular ' \
           '/CIDSystemInfo << /Registry (Adobe) /Ordering (Japan1) /Supplement 6 >> >>] >>'
    text_pdf("BT /F1 12 Tf 72 720 Td <#{bytes.unpack1('H*')}> Tj ET\n", font:)
  end

  # An Identity-H CID font (of a registry of its own) whose ToUnicode map
  # (object 6) builds on Adobe-Japan1-UCS2 (`usecmap`) and names one code,
  # 0300, itself; the page shows Japan1 CIDs and that code: "Hello World!".
  def pdf_with_to_unicode_on_a_collection
    cmap = "/CIDInit /ProcSet findresource begin 12 dict begin begincmap\n/Adobe-Japan1-UCS2 usecmap\n" \
           "1 begincodespacerange <0000> <FFFF> endcodespacerange\n" \
           "1 beginbfchar <0300> <0021> endbfchar\nendcmap end end\n"
    font = '<< /Type /Font /Subtype /Type0 /BaseFont /Fixture /Encoding /Identity-H /ToUnicode 6 0 R ' \
           '/DescendantFonts [<< /Type /Font /Subtype /CIDFontType0 /BaseFont /Fixture ' \
           '/CIDSystemInfo << /Registry (Fixture) /Ordering (Japan1) /Supplement 2 >> /DW 500 >>] >>'
    cids = 'Hello World'.chars.map { |c| format('%04X', c.ord - 31) }.join
    text_pdf("BT /F1 12 Tf 72 720 Td <#{cids}0300> Tj ET\n", font:, extra: [pdf_stream(cmap)])
  end
end
