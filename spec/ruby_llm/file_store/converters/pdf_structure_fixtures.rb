# frozen_string_literal: true

require_relative 'pdf_fixtures'

# Files whose structure other readers get past: object-stream members
# behind comments, a /Prev chain that loops, text after the stream keyword,
# a name written with spaces in it.
# Built from the well-formed files of PdfFixtures, every offset right.
module PdfStructureFixtures
  include PdfFixtures

  # The catalog, page tree and pages in an uncompressed object stream, each
  # behind a comment its offset points at (qpdf's QDF files write
  # "%% Object stream: object 4" and "%% Page 1" there), with a
  # cross-reference stream.
  def pdf_with_commented_object_stream(*pages)
    top = make_pdf(*pages).scan(/^(\d+) 0 obj\n(.*?)\nendobj\n/m).to_h.transform_keys(&:to_i)
    members = top.select { |_, body| body.match?(%r{/Type /(Catalog|Pages?) }) }
    objstm_pdf(top.reject { |n, _| members.key?(n) }, members)
  end

  # An update appended whose section lists the catalog alone and whose
  # /Prev points back at itself: a reader following /Prev never reaches the
  # section that lists the pages.
  def pdf_with_prev_loop(*pages)
    pdf = make_pdf(*pages)
    catalog = pdf.bytesize
    pdf += "1 0 obj\n<< /Type /Catalog /Pages 2 0 R >>\nendobj\n"
    xref = pdf.bytesize
    pdf + "xref\n0 2\n0000000000 65535 f \n#{format('%010d', catalog)} 00000 n \n" \
          "trailer\n<< /Size #{(pages.size * 2) + 4} /Root 1 0 R /Prev #{xref} >>\nstartxref\n#{xref}\n%%EOF\n"
  end

  # Each content stream's keyword followed on its line by +junk+ before its
  # data (pdfium's bug_543018_2), every offset right.
  def pdf_with_text_after_stream_keyword(*pages, junk: '   "this part is ignored"')
    bodies = make_pdf(*pages).scan(/^\d+ 0 obj\n(.*?)\nendobj\n/m).flatten
    serialize(bodies.map { |body| body.sub(">>\nstream\n", ">>\nstream#{junk}\n") })
  end

  # The pages' font with its /BaseFont written with spaces in it, as some
  # generators write "Arial Unicode MS" (pdf.js's issue11549), and drawn
  # through /Identity-H two bytes a character with a /ToUnicode map: the
  # text is lost with the font. Every offset right.
  def pdf_with_spaced_font_name(text)
    hex = text.unpack('C*').map { |c| format('%04X', c) }.join
    cmap = '/CIDInit /ProcSet findresource begin 12 dict begin begincmap 1 begincodespacerange <0000> <FFFF> ' \
           "endcodespacerange 1 beginbfrange <0000> <00FF> <0000> endbfrange endcmap end end\n"
    content = "BT /F1 12 Tf 72 720 Td <#{hex}> Tj ET\n"
    serialize(['<< /Type /Catalog /Pages 2 0 R >>', '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
               '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R ' \
               '/Resources << /Font << /F1 5 0 R >> >> >>',
               "<< /Length #{content.bytesize} >>\nstream\n#{content}endstream",
               '<< /Type /Font /Subtype /Type0 /BaseFont /ABCDEF+Arial Unicode MS /Encoding /Identity-H ' \
               '/DescendantFonts [6 0 R] /ToUnicode 7 0 R >>',
               '<< /Type /Font /Subtype /CIDFontType2 /BaseFont /ABCDEF+Arial Unicode MS /DW 500 ' \
               '/CIDSystemInfo << /Registry (Adobe) /Ordering (Identity) /Supplement 0 >> >>',
               "<< /Length #{cmap.bytesize} >>\nstream\n#{cmap}endstream"])
  end

  private

  # +top+ objects (number => body) written as they are, +members+ in an
  # object stream, each member after a comment, and a cross-reference
  # stream (type 1 and 2 entries) for all of them.
  def objstm_pdf(top, members)
    stm = top.size + members.size + 1
    out = +"%PDF-1.5\n".b
    entries = {}
    top.merge(stm => object_stream(members)).each do |n, body|
      entries[n] = [1, out.bytesize, 0]
      out << "#{n} 0 obj\n#{body}\nendobj\n"
    end
    members.each_key.with_index { |n, i| entries[n] = [2, stm, i] }
    xref_stream(out, entries, stm + 1)
  end

  # An object stream's dictionary and data: +members+ (number => body),
  # each behind two comment lines its offset points at.
  def object_stream(members)
    header = +''
    data = +''
    members.each_with_index do |(n, body), i|
      header << "#{n} #{data.bytesize} "
      data << "%% Object stream: object #{n}, index #{i}\n%% another comment\n#{body}\n"
    end
    header << "\n"
    "<< /Type /ObjStm /N #{members.size} /First #{header.bytesize} /Length #{header.bytesize + data.bytesize} >>" \
      "\nstream\n#{header}#{data}\nendstream"
  end

  # +out+ with a cross-reference stream, object +number+, for +entries+
  # (number => [type, field 2, field 3]) appended.
  def xref_stream(out, entries, number)
    at = out.bytesize
    entries[number] = [1, at, 0]
    rows = (0..number).map { |n| entries.fetch(n, [0, 0, 0]).pack('CNn') }.join
    out << "#{number} 0 obj\n<< /Type /XRef /Size #{number + 1} /W [1 4 2] /Root 1 0 R " \
           "/Length #{rows.bytesize} >>\nstream\n".b << rows << "\nendstream\nendobj\nstartxref\n#{at}\n%%EOF\n".b
  end
end
