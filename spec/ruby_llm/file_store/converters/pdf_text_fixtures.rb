# frozen_string_literal: true

require 'zlib'
require_relative 'pdf_fixtures'
require_relative 'truetype_fixture'

# Hostile PDFs for the text side of Converters::PdfText (fonts, ToUnicode
# maps, text and annotations, the page tree, coordinates), each a few KB:
# built here, converted by spec/scripts/pdf_text_limits.rb.
module PdfTextFixtures
  include PdfFixtures

  HELVETICA = '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>'

  # A one-page PDF: object 4 is the page's content, object 5 its font F1,
  # +extra+ objects follow from 6; +page+ goes into the page dictionary.
  # The content is deflated when +deflate+.
  def text_pdf(content, font: HELVETICA, page: '', extra: [], deflate: false)
    objects = ['<< /Type /Catalog /Pages 2 0 R >>', '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
               "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R #{page}" \
               '/Resources << /Font << /F1 5 0 R >> >> >>',
               pdf_stream(content, deflate:), font]
    serialize(objects + extra)
  end

  # A stream object holding +data+, deflated when +deflate+.
  def pdf_stream(data, dict = '', deflate: false)
    data = Zlib::Deflate.deflate(data, Zlib::BEST_COMPRESSION) if deflate
    filter = deflate ? '/Filter /FlateDecode ' : ''
    "<< /Length #{data.bytesize} #{filter}#{dict}>>\nstream\n".b + data.b + "\nendstream".b
  end

  # Helvetica whose ToUnicode map (object 6) is +cmap+, deflated.
  def pdf_with_to_unicode(cmap, content: "BT /F1 12 Tf 72 720 Td (Hello) Tj ET\n")
    font = '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /ToUnicode 6 0 R >>'
    text_pdf(content, font:, extra: [pdf_stream(cmap, deflate: true)], deflate: true)
  end

  def bfrange_cmap(ranges)
    "/CIDInit /ProcSet findresource begin 12 dict begin begincmap\n" \
      "1 begincodespacerange <00> <FF> endcodespacerange\n" \
      "#{ranges.size} beginbfrange\n#{ranges.join("\n")}\nendbfrange\nendcmap end end\n"
  end

  # A simple TrueType font whose encoding names no glyph text (every code
  # from 32 is /g0), so its embedded program (object 6, +program+ deflated)
  # gives the glyphs' text.
  def pdf_with_truetype(program, text: 'Hello')
    font = '<< /Type /Font /Subtype /TrueType /BaseFont /Hostile ' \
           "/Encoding << /Differences [32 #{'/g0 ' * 224}] >> " \
           '/FontDescriptor << /Type /FontDescriptor /FontName /Hostile /Flags 4 /FontFile2 6 0 R >> >>'
    text_pdf(page_text(text), font:, extra: [pdf_stream(program, deflate: true)])
  end

  # A page whose /Annots lists +times+ times one text field (object 6) with
  # no appearance and a value of +value_bytes+ letters (drawn in the
  # Helvetica its /DA names).
  def pdf_with_repeated_field(value_bytes:, times:)
    field = '<< /Type /Annot /Subtype /Widget /FT /Tx /Rect [72 600 300 620] /DA (/Helv 12 Tf) ' \
            "/V (#{'v' * value_bytes}) >>"
    text_pdf(page_text('Some text on the page.'), page: "/Annots [#{'6 0 R ' * times}] ", extra: [field])
  end

  # One page (object 3) listed +times+ times in /Kids, with +annotations+
  # annotations whose appearance is one empty, unfiltered form.
  def pdf_with_repeated_page(times:, annotations:)
    first = 8
    annots = Array.new(annotations) { |i| "#{first + i} 0 R" }.join(' ')
    objects = ['<< /Type /Catalog /Pages 2 0 R >>',
               "<< /Type /Pages /Kids [#{'3 0 R ' * times}] /Count #{times} >>",
               '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R ' \
               '/Resources << /Font << /F1 5 0 R >> >> /Annots 6 0 R >>',
               pdf_stream(page_text('Some text on the page.')), HELVETICA, "[#{annots}]",
               pdf_stream('', '/Type /XObject /Subtype /Form /BBox [0 0 10 10] ')]
    serialize(objects + Array.new(annotations) { '<</Subtype/Stamp/Rect[0 0 10 10]/AP<</N 7 0 R>>>>' })
  end

  def page_text(text) = "BT /F1 12 Tf 72 720 Td (#{text}) Tj ET\n"
end
