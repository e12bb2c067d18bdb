# frozen_string_literal: true

require_relative 'pdf_text_fixtures'

# Crafted PDFs of form fields and annotations, each one class of what
# pdftotext (poppler) draws of them: appearances mapped onto their
# rectangles and held to the page, and the appearances poppler makes for
# fields without one (or when the form asks for new ones).
module PdfAnnotationFixtures
  include PdfTextFixtures

  PAGE_TEXT = "BT /F1 12 Tf 72 720 Td (Form fields below.) Tj ET\n"

  # A page (object 3) reading "Form fields below." whose /Annots lists
  # +annots+ (object numbers); +objects+ are numbered from 6, and
  # +acroform+ (a dictionary) becomes the catalog's /AcroForm.
  def form_pdf(objects, annots:, acroform: nil)
    catalog = acroform ? "<< /Type /Catalog /Pages 2 0 R /AcroForm #{acroform} >>" : '<< /Type /Catalog /Pages 2 0 R >>'
    list = annots.map { |n| "#{n} 0 R" }.join(' ')
    serialize([catalog, '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
               '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R ' \
               "/Resources << /Font << /F1 5 0 R >> >> /Annots [#{list}] >>",
               pdf_stream(PAGE_TEXT), HELVETICA] + objects)
  end

  # A scrolling text field near the foot of the page: its appearance's
  # box starts at y = 500, and its ten lines run down past the page.
  def pdf_with_scrolling_field
    lines = (1..10).map { |i| "(Line #{i}) Tj 0 -14 Td" }.join(' ')
    appearance = pdf_stream("/Tx BMC BT /F1 12 Tf 2 505 Td #{lines} ET EMC\n",
                            '/Type /XObject /Subtype /Form /BBox [0 500 200 520] ' \
                            '/Resources << /Font << /F1 5 0 R >> >> ')
    form_pdf(['<< /Type /Annot /Subtype /Widget /FT /Tx /Rect [72 40 272 60] /DA (/F1 12 Tf) /AP << /N 7 0 R >> >>',
              appearance], annots: [6])
  end

  # Text fields drawn with the form's /DA: one without an appearance, one
  # whose stale appearance the form may ask to be made again, and a kid
  # without /Parent, found through the field tree.
  def pdf_with_text_fields(need_appearances: true)
    stale = pdf_stream('BT /F1 12 Tf 2 5 Td (Stale) Tj ET',
                       '/Type /XObject /Subtype /Form /BBox [0 0 200 20] /Resources << /Font << /F1 5 0 R >> >> ')
    form_pdf(['<< /Type /Annot /Subtype /Widget /FT /Tx /T (a) /Rect [72 600 272 620] /V (Plain value) >>',
              '<< /Type /Annot /Subtype /Widget /FT /Tx /T (b) /Rect [72 560 272 580] /V (Fresh value) ' \
              '/AP << /N 8 0 R >> >>',
              stale,
              '<< /FT /Tx /T (d) /V (Inherited value) /Kids [10 0 R] >>',
              '<< /Type /Annot /Subtype /Widget /Rect [72 480 272 500] >>'],
             annots: [6, 7, 10],
             acroform: "<< /Fields [6 0 R 7 0 R 9 0 R] /DA (/Helv 12 Tf 0 g) /NeedAppearances #{need_appearances} >>")
  end

  # Fields without appearances or a form: a list box shows its options
  # from its top index, a combo box the text of the option /V exports, and
  # a text field without /DA nothing (no font to draw it in).
  def pdf_with_choice_fields
    form_pdf(['<< /Type /Annot /Subtype /Widget /FT /Ch /T (list) /Rect [72 500 272 620] /DA (/Helv 12 Tf) ' \
              '/Opt [(Apple) [(b) (Banana)] (Cherry)] /TI 1 >>',
              '<< /Type /Annot /Subtype /Widget /FT /Ch /Ff 131072 /T (combo) /Rect [72 400 272 420] ' \
              '/DA (/Helv 12 Tf) /Opt [[(x) (Extra)] [(y) (Yankee)]] /V (y) >>',
              '<< /Type /Annot /Subtype /Widget /FT /Tx /T (text) /Rect [72 300 272 320] /V (Undrawn) >>'],
             annots: [6, 7, 8])
  end

  # Buttons: a checked box without an appearance for its state (a check
  # mark), one without /DA (none), and a radio group whose value names
  # one kid's state.
  def pdf_with_buttons
    form_pdf(['<< /Type /Annot /Subtype /Widget /FT /Btn /T (check) /AS /Yes /DA (/ZaDb 0 Tf 0 g) ' \
              '/AP << /N << /Off 10 0 R >> >> /Rect [72 600 84 612] >>',
              '<< /FT /Btn /Ff 49152 /T (radio) /V /B /DA (/ZaDb 0 Tf 0 g) /Kids [8 0 R 9 0 R] >>',
              '<< /Type /Annot /Subtype /Widget /Parent 7 0 R /AS /A /MK << /CA (l) >> /Rect [72 560 84 572] >>',
              '<< /Type /Annot /Subtype /Widget /Parent 7 0 R /AS /B /MK << /CA (l) >> /Rect [72 540 84 552] >>',
              pdf_stream('', '/Type /XObject /Subtype /Form /BBox [0 0 12 12] '),
              '<< /Type /Annot /Subtype /Widget /FT /Btn /T (bare) /AS /Yes /Rect [72 520 84 532] >>'],
             annots: [6, 8, 9, 11], acroform: '<< /Fields [6 0 R 7 0 R 11 0 R] >>')
  end

  # A free-text note without an appearance: its contents in Helvetica,
  # which has no Greek.
  def pdf_with_free_text
    form_pdf(['<< /Type /Annot /Subtype /FreeText /Rect [72 600 272 640] /DA (/Helv 10 Tf 0 g) ' \
              '/Contents <FEFF00480065006C006C006F0020005703A90072006C0064> >>'],
             annots: [6])
  end
end
