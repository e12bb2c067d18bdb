# frozen_string_literal: true

# Run by spec/guarantees/pdf_text_limits_spec.rb in a fresh Ruby, one case
# per process: builds a crafted PDF whose fonts, text, annotations, page
# tree or coordinates are hostile (PdfTextFixtures), converts it with
# Converters::PdfText in a thread, and prints one JSON line with the result
# or the error, the seconds it took and the peak resident memory (VmHWM,
# MB). The process may use 30 s of CPU: a conversion that spins past that is
# killed (SIGXCPU) and the case fails.
#
#   ruby spec/scripts/pdf_text_limits.rb long_destination
#   ruby spec/scripts/pdf_text_limits.rb truetype_groups 1   # within Timeout.timeout(1)

require_relative 'pdf_case'
require_relative '../ruby_llm/file_store/converters/pdf_text_fixtures'
require_relative '../ruby_llm/file_store/converters/pdf_work_fixtures'

PdfCase.limit_cpu(30)
include PdfWorkFixtures # rubocop:disable Style/MixinUsage

CASES = {
  # One range of 65,536 codes whose destination is 65,536 UTF-16 units.
  'long_destination' => -> { pdf_with_to_unicode(bfrange_cmap(["<0000> <FFFF> <#{'0041' * 65_536}>"])) },
  # 1,000 ranges of 65,536 four-byte codes each.
  'many_full_ranges' => lambda {
    pdf_with_to_unicode(bfrange_cmap(Array.new(1000) { |i| format('<%<i>04X0000> <%<i>04XFFFF> <0041>', i:) }))
  },
  # One Tj of 10 M codes, each mapped to 8 letters (80 MB), squeezed along
  # x by the CTM so that all of it lies on the page (glyphs off the page are
  # not read), its codes cycling through 256 texts, each 0.6 em wide, so
  # that none is taken for a glyph drawn again on itself (a glyph of no
  # width drawn where the same text lies is one).
  'huge_show' => lambda {
    codes = (0..255).map { |c| format('%02X', c) }.join * (10_000_000 / 256)
    font = '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /FirstChar 0 /LastChar 255 ' \
           "/Widths [#{'600 ' * 256}] /ToUnicode 6 0 R >>"
    cmap = pdf_stream(bfrange_cmap(["<00> <FF> <#{'0041' * 8}>"]), deflate: true)
    text_pdf("0.000005 0 0 1 72 0 cm BT /F1 12 Tf 0 720 Td <#{codes}> Tj ET\n", font:, extra: [cmap], deflate: true)
  },
  # One Tj of 60 M codes, each the letter A drawn with no width: every
  # glyph but the first falls on the first and is dropped, so no text grows.
  'huge_show_in_place' => lambda {
    font = '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /FirstChar 0 /LastChar 0 /Widths [0] ' \
           '/ToUnicode 6 0 R >>'
    cmap = pdf_stream(bfrange_cmap(['<00> <00> <0041>']))
    text_pdf("BT /F1 12 Tf 72 720 Td (#{"\0" * 60_000_000}) Tj ET\n", font:, deflate: true, extra: [cmap])
  },
  'repeated_field' => -> { pdf_with_repeated_field(value_bytes: 1 << 20, times: 10_000) },
  'truetype_groups' => lambda {
    pdf_with_truetype(TruetypeFixture.font(glyphs: 100,
                                           cmap: TruetypeFixture.format12_cmap(Array.new(400) { [0, 0xFFFF_FFFF, 0] })))
  },
  # 65,535 glyphs named in the post table; codes 32..126 are glyphs 32..126
  # (a symbolic (3,0) cmap), named for their letters.
  'truetype_post_names' => lambda {
    names = Array.new(65_535) { |i| (65..90).cover?(i) || (97..122).cover?(i) ? i.chr : 'a' }
    names[32] = 'space'
    cmap = TruetypeFixture.cmap([[3, 0, TruetypeFixture.format6(32, (32..126).to_a)]])
    pdf_with_truetype(TruetypeFixture.font(glyphs: 65_535, cmap:, post: TruetypeFixture.post_v2(names)),
                      text: 'Read the glyph names')
  },
  'repeated_page' => -> { pdf_with_repeated_page(times: 100_000, annotations: 10_000) },
  # Issue 39: one operator or one widget doing unbounded work of its own.
  'huge_list_box' => -> { pdf_with_huge_list_box },
  'self_referencing_ocmd' => -> { pdf_with_self_referencing_ocmd },
  'long_actual_text' => -> { pdf_with_long_actual_text },
  'combo_values' => -> { pdf_with_combo_values },
  'far_glyphs' => -> { pdf_with_far_glyphs },
  'fonts_sharing_a_map' => -> { pdf_with_fonts_sharing_a_map }
}.freeze

# A second argument is a Timeout, in seconds, around the conversion.
PdfCase.run(ARGV[0], CASES.fetch(ARGV[0]).call, ARGV[1]&.to_f)
