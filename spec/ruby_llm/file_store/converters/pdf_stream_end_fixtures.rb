# frozen_string_literal: true

require_relative 'pdf_fixtures'

# Streams whose data does not end where their /Length says it does, or
# whose +endstream+ has no end of line before it, as generators write them.
module PdfStreamEndFixtures
  include PdfFixtures

  # One page whose content stream has a right /Length (written directly or,
  # with +indirect+, as object 6) and bytes after it before +endstream+, as
  # Ghostscript leaves "Page 2" there.
  def pdf_with_junk_before_endstream(text, indirect:)
    data = page_content(text).b
    length = indirect ? '6 0 R' : data.bytesize.to_s
    objects = ['<< /Type /Catalog /Pages 2 0 R >>', '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
               '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R ' \
               '/Resources << /Font << /F1 5 0 R >> >> >>',
               "<< /Length #{length} >>\nstream\n".b + data + "Page 2\nendstream".b,
               '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>', data.bytesize.to_s]
    serialize(objects)
  end

  # A page showing +codes+ in a font whose ToUnicode CMap (object 6, A-Z to
  # a-z) ends "end" right before its +endstream+, no end of line between,
  # and whose /Length counts the end of line that was not written.
  def pdf_with_cmap_without_eol_before_endstream(codes)
    cmap = "/CIDInit /ProcSet findresource begin 12 dict begin begincmap\n" \
           "1 begincodespacerange <00> <FF> endcodespacerange\n" \
           "1 beginbfrange\n<41> <5A> <0061>\nendbfrange\nendcmap end\nend"
    objects = ['<< /Type /Catalog /Pages 2 0 R >>', '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
               '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R ' \
               '/Resources << /Font << /F1 5 0 R >> >> >>',
               pdf_body_stream("BT /F1 12 Tf 72 720 Td (#{codes}) Tj ET\n"),
               '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /ToUnicode 6 0 R >>',
               "<< /Length #{cmap.bytesize + 1} >>\nstream\n#{cmap}endstream"]
    serialize(objects)
  end

  private

  def pdf_body_stream(data) = "<< /Length #{data.bytesize} >>\nstream\n#{data}\nendstream"
end
