# frozen_string_literal: true

require 'zlib'
require_relative 'pdf_text_fixtures'

# Hostile PDFs where one operator or one widget does unbounded work of its
# own (issue 39): an optional-content expression, an /ActualText span, a
# list box or combo box, glyphs far out on the page (a number past 64 bits
# is read in ext/file_stores_pdf/src/syntax.rs's tests).
# Each is a few KB: the large strings sit in a deflated object stream.
# Converted by spec/scripts/pdf_text_limits.rb.
module PdfWorkFixtures
  include PdfTextFixtures

  # A one-page PDF: catalog (1, with +catalog+ inside), pages (2), page
  # (3, with +page+ inside, and +resources+ beside the font F1), +content+
  # (4, deflated), Helvetica (5), then +extra+ objects from 6; +members+ (number => body) go into a deflated object
  # stream after them.
  def work_pdf(content, page: '', resources: '', catalog: '', extra: [], members: {}, media_box: '0 0 612 792')
    objects = ["<< /Type /Catalog /Pages 2 0 R #{catalog}>>", '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
               "<< /Type /Page /Parent 2 0 R /MediaBox [#{media_box}] /Contents 4 0 R #{page}" \
               "/Resources << /Font << /F1 5 0 R >> #{resources}>> >>",
               pdf_stream(content, deflate: true), HELVETICA] + extra
    objects << object_stream(members) unless members.empty?
    serialize(objects)
  end

  # A deflated object stream holding +members+ (number => body).
  def object_stream(members)
    header = +''
    data = +''.b
    members.each do |n, body|
      header << "#{n} #{data.bytesize} "
      data << body.b << "\n"
    end
    header << "\n"
    pdf_stream(header.b + data, "/Type /ObjStm /N #{members.size} /First #{header.bytesize} ", deflate: true)
  end

  # Item 1: a list box with no appearance whose /Opt lists one 1 MB
  # string (object 1000) +times+ times.
  def pdf_with_huge_list_box(times: 4096)
    widget = '<< /Type /Annot /Subtype /Widget /FT /Ch /T (list) /Rect [72 500 272 620] ' \
             "/DA (/Helv 12 Tf) /Opt [#{'1000 0 R ' * times}] >>"
    work_pdf(page_text('A list box below.'), page: '/Annots [6 0 R] ', extra: [widget],
                                             members: { 1000 => "(#{'l' * (1 << 20)})" })
  end

  # Item 2: an /OCMD whose /VE (object 1000) is [/And 1000 0 R ...] 100,000
  # times, marking +times+ empty sequences, then a sentence.
  def pdf_with_self_referencing_ocmd(times: 20_000)
    content = "#{'/OC /oc1 BDC EMC ' * times}\n#{page_text('After the marked content.')}"
    work_pdf(content, resources: '/Properties << /oc1 7 0 R >> ',
                      catalog: '/OCProperties << /OCGs [6 0 R] /D << /Order [6 0 R] >> >> ',
                      extra: ['<< /Type /OCG /Name (Layer) >>', '<< /Type /OCMD /VE 1000 0 R >>'],
                      members: { 1000 => "[/And #{'1000 0 R ' * 100_000}]" })
  end

  # Item 3: an 8 MB /ActualText string (object 1000) named by +times+ empty
  # spans, then a sentence.
  def pdf_with_long_actual_text(times: 10_000)
    content = "#{'/Span /P1 BDC EMC ' * times}\n#{page_text('After the spans.')}"
    work_pdf(content, resources: '/Properties << /P1 << /ActualText 1000 0 R >> >> ',
                      members: { 1000 => "(#{'t' * (8 << 20)})" })
  end

  # Item 4: a combo box (object 1001, in the object stream) of +widgets+
  # widgets (from object 6) without appearances, +options+ options (object
  # 1000, 256 KB) and 16 values of 256 KB that differ from it in their last
  # byte.
  def pdf_with_combo_values(widgets: 200, options: 4096)
    long = 'c' * ((256 << 10) - 1)
    kids = Array.new(widgets) { |i| "#{6 + i} 0 R" }.join(' ')
    values = (98...114).map { |c| "(#{long}#{c.chr})" }.join(' ')
    field = "<< /FT /Ch /Ff 131072 /T (combo) /DA (/Helv 12 Tf) /Opt [#{'1000 0 R ' * options}] " \
            "/V [#{values}] /Kids [#{kids}] >>"
    widget = '<< /Type /Annot /Subtype /Widget /Parent 1001 0 R /Rect [72 500 272 520] >>'
    work_pdf(page_text('A combo box below.'), page: "/Annots [#{kids}] ",
                                              catalog: '/AcroForm << /Fields [1001 0 R] >> ',
                                              extra: Array.new(widgets) { widget },
                                              members: { 1000 => "(#{long}a)", 1001 => field })
  end

  # Item 5: one Tj of +glyphs+ letters placed 1e16 apart from x = 1e20 on
  # a page 1e30 wide.
  def pdf_with_far_glyphs(glyphs: 1_000_000)
    content = "BT /F1 12 Tf 10000000000000000 Tc 100000000000000000000 700 Td (#{'a' * glyphs}) Tj ET\n"
    work_pdf(content, media_box: '0 0 1000000000000000000000000000000.0 792')
  end

  # What held, counted right: +fonts+ Type0 fonts (objects 7 on) sharing
  # one ToUnicode map (object 6) of 65,536 codes, each showing two codes.
  def pdf_with_fonts_sharing_a_map(fonts: 80)
    cmap = "/CIDInit /ProcSet findresource begin 12 dict begin begincmap\n" \
           "1 begincodespacerange <0000> <FFFF> endcodespacerange\n" \
           "1 beginbfrange\n<0000> <FFFF> <0041>\nendbfrange\nendcmap end end\n"
    font = '<< /Type /Font /Subtype /Type0 /BaseFont /X /Encoding /Identity-H /ToUnicode 6 0 R ' \
           '/DescendantFonts [<< /Type /Font /Subtype /CIDFontType2 /BaseFont /X ' \
           '/CIDSystemInfo << /Registry (Adobe) /Ordering (Identity) /Supplement 0 >> >>] >>'
    names = (1..fonts).map { |i| "/G#{i} #{6 + i} 0 R" }.join(' ')
    content = (1..fonts).map { |i| "BT /G#{i} 12 Tf 72 #{780 - (i * 9)} Td <00010002> Tj ET" }.join("\n")
    work_pdf(content, resources: "/Font << /F1 5 0 R #{names} >> ",
                      extra: [pdf_stream(cmap, deflate: true)] + Array.new(fonts) { font })
  end
end
