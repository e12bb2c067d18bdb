# frozen_string_literal: true

require_relative 'pdf_annotation_fixtures'

# Form fields and annotations as pdftotext reads them: each crafted file
# is one class of what poppler draws (or does not) of an annotation.
RSpec.describe RubyLLM::FileStore::Converters::PdfText do
  include PdfAnnotationFixtures

  def convert(bytes)
    described_class.call(RubyLLM::FileStore::Converters::Input.new(content: bytes, filename: 'doc.pdf',
                                                                   mime_type: 'application/pdf', path: 'doc.pdf'))
  end

  def page(*lines) = "## Page 1\n\n#{(['Form fields below.'] + lines).join("\n")}\n"

  it "maps an appearance's box onto its rectangle and drops the lines that land off the page" do
    expect(convert(pdf_with_scrolling_field)).to eq(page('Line 1', 'Line 2', 'Line 3', 'Line 4'))
  end

  it "draws text fields as poppler makes them: /NeedAppearances redraws, a kid's field is found through the tree" do
    expect(convert(pdf_with_text_fields)).to eq(page('Plain value', 'Fresh value', 'Inherited value'))
  end

  it "keeps a field's own appearance when the form does not ask for new ones" do
    expect(convert(pdf_with_text_fields(need_appearances: false)))
      .to eq(page('Plain value', 'Stale', 'Inherited value'))
  end

  it "shows a list box's options from its top index, a combo box's selected option, no field without /DA" do
    expect(convert(pdf_with_choice_fields)).to eq(page('Banana', 'Cherry', 'Yankee'))
  end

  it "draws a checked box's check mark and the radio button its group's value names" do
    expect(convert(pdf_with_buttons)).to eq(page('✓', '●'))
  end

  it "draws a free-text note's contents without what its font cannot encode" do
    expect(convert(pdf_with_free_text)).to eq(page('Hello Wrld'))
  end
end
