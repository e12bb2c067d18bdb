# frozen_string_literal: true

require_relative 'guarantee_helpers'

# Guarantee: a hostile PDF's fonts, text, annotations, page tree and
# coordinates are bounded where the work happens, and read correctly where
# they are only unusual. Each crafted file (a few KB, PdfTextFixtures) is
# converted in its own Ruby (spec/scripts/pdf_text_limits.rb), in a thread
# of a child capped at 3 GB of address space and 30 s of CPU, which reports
# the answer, the seconds it took and its peak resident memory (VmHWM).
# Bounds on seconds are generous: the machine is shared.
RSpec.describe 'Guarantee: a hostile PDF text layer is read within bounds', :native do
  def run_case(name, *args) = GuaranteeHelpers.run_case('pdf_text_limits.rb', name, *args)

  def page_text(outcome) = outcome[:result].to_s.sub("## Page 1\n\n", '')

  describe 'ToUnicode maps' do
    it 'keeps 32 UTF-16 units of a destination 65,536 units long, over a range of 65,536 codes (1 KB)' do
      outcome = run_case('long_destination')
      expect(page_text(outcome).count('A')).to eq(31 * 5) # 5 glyphs; each one's last unit counts up from A
      expect(outcome[:seconds]).to be < 5
      expect(outcome[:peak_mb]).to be < 300
    end

    it 'bounds a map of 1,000 ranges of 65,536 codes (5 KB)' do
      outcome = run_case('many_full_ranges')
      expect(outcome).to include(result: nil) # its letters map to controls: no usable text
      expect(outcome[:seconds]).to be < 5
      expect(outcome[:peak_mb]).to be < 300
    end
  end

  describe 'text and glyphs' do
    it 'refuses one Tj of 10 M codes of 8 letters each, all on the page, at the text limit, as it grows (86 KB)' do
      outcome = run_case('huge_show')
      expect(outcome[:error]).to match(/huge_show\.pdf.*more than 67108864 bytes of text/)
      expect(outcome[:seconds]).to be < 20
      expect(outcome[:peak_mb]).to be < 500
    end

    it 'stops one Tj of 60 M glyphs drawn in one place at a Timeout (60 KB)' do
      outcome = run_case('huge_show_in_place', 1)
      expect(outcome[:error]).to start_with('Timeout::Error')
      expect(outcome[:seconds]).to be < 3
      expect(outcome[:peak_mb]).to be < 400
    end

    it 'shows a text field listed 10,000 times in /Annots once, its 1 MB value checked against the text limit' do
      outcome = run_case('repeated_field')
      expect(page_text(outcome)).to eq("Some text on the page.\n#{'v' * (1 << 20)}\n")
      expect(outcome[:seconds]).to be < 10
      expect(outcome[:peak_mb]).to be < 300
    end
  end

  describe 'embedded fonts' do
    it 'reads a TrueType cmap of 400 groups over 0..0xFFFFFFFF clamped to its glyphs (1 KB)' do
      outcome = run_case('truetype_groups')
      # No code maps to a glyph; the glyph names (g0) say nothing, so the
      # codes read as their own characters, as pdftotext reads them.
      expect(page_text(outcome)).to eq("Hello\n")
      expect(outcome[:seconds]).to be < 5
    end

    it "reads a 65,535-glyph font's post names in one pass" do
      outcome = run_case('truetype_post_names')
      expect(page_text(outcome)).to eq("Read the glyph names\n")
      expect(outcome[:seconds]).to be < 10
    end
  end

  describe 'pages and annotations' do
    it 'reads a page listed 100,000 times in /Kids, with 10,000 empty annotation forms, once' do
      outcome = run_case('repeated_page')
      expect(outcome[:result]).to eq("## Page 1\n\nSome text on the page.\n")
      expect(outcome[:seconds]).to be < 10
    end

    it 'keeps the page after a page-tree node that is its own kid' do
      expect(run_case('page_tree_cycle')[:result])
        .to eq("## Page 1\n\nThe first page of two.\n\n## Page 2\n\nThe second page, after the cycle.\n")
    end
  end

  it 'reads a sentence at x = 1e9 moved back by the CTM (positions in f64)' do
    expect(run_case('far_coordinates')[:result]).to eq("## Page 1\n\nPay the invoice within thirty days.\n")
  end
end
