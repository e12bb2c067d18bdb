# frozen_string_literal: true

require_relative 'pdf_text_fixtures'

# Crafted PDFs of optional content (PDF 32000-1 8.11): groups the default
# configuration turns off, membership dictionaries and visibility
# expressions, used by marked content, forms and annotations. pdftotext
# leaves out what a hidden group holds.
module PdfOptionalFixtures
  include PdfTextFixtures

  # Group 6 is on and group 7 off (/D /OFF); the page's /Properties name
  # them and membership dictionaries 8 (AllOn), 9 (/VE [/Not on]) and 10
  # (AnyOn); forms 11 (in 7) and 12 (in 6); stamps 13 (in 7) and 15 (in 6).
  def pdf_with_optional_content
    content = [
      'BT /F1 12 Tf 72 720 Td (Shown one) Tj ET',
      '/OC /Off BDC BT /F1 12 Tf 72 700 Td (Hidden one) Tj ET EMC',
      '/OC /On BDC BT /F1 12 Tf 72 680 Td (Shown two) Tj ET EMC',
      '/OC /AllOn BDC BT /F1 12 Tf 72 660 Td (Hidden two) Tj ET EMC',
      '/OC /NotOn BDC BT /F1 12 Tf 72 640 Td (Hidden three) Tj ET EMC',
      '/OC /AnyOn BDC BT /F1 12 Tf 72 620 Td (Shown three) Tj ET EMC',
      '/OC /On BDC /OC /Off BDC BT /F1 12 Tf 72 600 Td (Hidden four) Tj ET EMC',
      'BT /F1 12 Tf 72 580 Td (Shown four) Tj ET EMC',
      'q 1 0 0 1 72 560 cm /Fm1 Do Q q 1 0 0 1 72 540 cm /Fm2 Do Q'
    ].join("\n")
    optional_pdf(content, [form('Hidden five', 7), form('Shown five', 6),
                           stamp(400, 7, 14), form('Hidden six', nil), stamp(380, 6, 16), form('Shown six', nil)])
  end

  # Marked content nested +depth+ deep, the outermost in the hidden group:
  # the text inside is hidden, the text after the last EMC shown.
  def pdf_with_deep_marked_content(depth)
    content = "#{'/OC /Off BDC ' * depth}BT /F1 12 Tf 72 700 Td (Hidden deep) Tj ET #{'EMC ' * depth}\n" \
              "BT /F1 12 Tf 72 680 Td (Shown after) Tj ET\n"
    optional_pdf(content, [], annots: '')
  end

  private

  def optional_pdf(content, objects, annots: '/Annots [13 0 R 15 0 R] ')
    catalog = '<< /Type /Catalog /Pages 2 0 R /OCProperties << /OCGs [6 0 R 7 0 R] /D << /OFF [7 0 R] >> >> >>'
    resources = '<< /Font << /F1 5 0 R >> /XObject << /Fm1 11 0 R /Fm2 12 0 R >> ' \
                '/Properties << /On 6 0 R /Off 7 0 R /AllOn 8 0 R /NotOn 9 0 R /AnyOn 10 0 R >> >>'
    serialize([catalog, '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
               "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources #{resources} " \
               "#{annots}>>",
               pdf_stream(content), HELVETICA,
               '<< /Type /OCG /Name (On) >>', '<< /Type /OCG /Name (Off) >>',
               '<< /Type /OCMD /OCGs [6 0 R 7 0 R] /P /AllOn >>',
               '<< /Type /OCMD /VE [/Not 6 0 R] >>',
               '<< /Type /OCMD /OCGs [6 0 R 7 0 R] >>'] + objects)
  end

  # A form drawing +text+ at its origin, in group +group+ (none if nil).
  def form(text, group)
    oc = group ? "/OC #{group} 0 R " : ''
    pdf_stream("BT /F1 12 Tf 0 2 Td (#{text}) Tj ET\n",
               "/Type /XObject /Subtype /Form /BBox [0 0 200 20] #{oc}/Resources << /Font << /F1 5 0 R >> >> ")
  end

  # A stamp at height +low+ in group +group+, its appearance object +appearance+.
  def stamp(low, group, appearance)
    "<< /Type /Annot /Subtype /Stamp /Rect [72 #{low} 272 #{low + 20}] /OC #{group} 0 R " \
      "/AP << /N #{appearance} 0 R >> >>"
  end
end
