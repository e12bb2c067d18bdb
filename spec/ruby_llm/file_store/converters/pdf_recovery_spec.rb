# frozen_string_literal: true

require_relative 'pdf_recovery_fixtures'
require_relative 'pdf_structure_fixtures'
require_relative 'pdf_stream_end_fixtures'
require_relative 'aes128_pdf'

# Damaged cross-reference sections, encryption without an /ID, and every
# standard filter: files other readers open, read through PdfText.
RSpec.describe RubyLLM::FileStore::Converters::PdfText do
  include PdfRecoveryFixtures
  include PdfStructureFixtures
  include PdfStreamEndFixtures

  def convert(bytes, name = 'doc.pdf')
    described_class.call(RubyLLM::FileStore::Converters::Input.new(content: bytes, filename: name,
                                                                   mime_type: 'application/pdf', path: name))
  end

  let(:two_pages) { ["Termination clause\nninety days notice.", 'Signed on the second page.'] }
  let(:both_read) do
    "## Page 1\n\nTermination clause\nninety days notice.\n\n## Page 2\n\nSigned on the second page.\n"
  end

  # Forty lines of words that do not repeat much, so LZW's codes pass 511
  # and change width, and PNG rows cover every filter type.
  let(:long_text) do
    (1..40).map { |i| "Line #{i} of the agreement, clause #{i * 7} section #{(i * 13) % 97}." }.join("\n")
  end
  let(:long_read) { "## Page 1\n\n#{long_text}\n" }

  context 'with a damaged cross-reference section' do
    it 'reads a file whose startxref points at the wrong offset' do
      expect(convert(pdf_with_wrong_startxref(*two_pages))).to eq(both_read)
    end

    it 'reads a file with no table, trailer or startxref' do
      expect(convert(pdf_without_trailer(*two_pages))).to eq(both_read)
    end

    it 'reads a file whose table gives wrong offsets' do
      expect(convert(pdf_with_wrong_offsets(*two_pages))).to eq(both_read)
    end

    it 'reads a trailer without /Size through the table, even where a scan finds no catalog header' do
      expect(convert(pdf_without_size_catalog_after_comment(*two_pages))).to eq(both_read)
    end

    it 'reads the objects of a file whose trailer nests past the limit' do
      expect(convert(pdf_with_deep_trailer(*two_pages))).to eq(both_read)
    end

    it 'reads an object whose dictionary is left open before its endobj' do
      expect(convert(pdf_with_unclosed_font(*two_pages))).to eq(both_read)
    end

    it 'reads what a cut download holds' do
      expect(convert(truncated_pdf(*two_pages))).to start_with("## Page 1\n\nTermination clause\nninety days notice.\n")
    end

    it 'reads content streams whose /Length misses their endstream, up to the endstream' do
      expect(convert(pdf_with_wrong_lengths(*two_pages))).to eq(both_read)
    end

    [false, true].each do |indirect|
      it "reads a content stream whose right #{indirect ? 'indirect' : 'direct'} /Length is followed by junk " \
         'before its endstream' do
        expect(convert(pdf_with_junk_before_endstream("Junk follows\nthe data.", indirect:)))
          .to eq("## Page 1\n\nJunk follows\nthe data.\n")
      end
    end

    it 'reads a ToUnicode CMap whose data runs into its endstream with no end of line before it' do
      expect(convert(pdf_with_cmap_without_eol_before_endstream('HELLO'))).to eq("## Page 1\n\nhello\n")
    end

    it 'reads a content stream whose right /Length holds the word endstream in its data' do
      expect(convert(make_pdf("The word endstream\nis text here.")))
        .to eq("## Page 1\n\nThe word endstream\nis text here.\n")
    end

    it 'reads the objects of an object stream that sit behind comments' do
      expect(convert(pdf_with_commented_object_stream(*two_pages))).to eq(both_read)
    end

    it "reads the pages of a file whose last update's /Prev points back at itself" do
      expect(convert(pdf_with_prev_loop(*two_pages))).to eq(both_read)
    end

    it 'reads a content stream whose keyword is followed on its line by more than white space' do
      expect(convert(pdf_with_text_after_stream_keyword(*two_pages))).to eq(both_read)
    end

    it 'reads a font whose /BaseFont is written with spaces in it' do
      expect(convert(pdf_with_spaced_font_name('Flags and paving'))).to eq("## Page 1\n\nFlags and paving\n")
    end

    it 'reads an encrypted file (RC4, empty password, no /ID) whose startxref is wrong' do
      bytes = encrypted_pdf_without_id("Encrypted and damaged,\nstill read.").sub(/startxref\n\d+/, "startxref\n3")
      expect(convert(bytes)).to eq("## Page 1\n\nEncrypted and damaged,\nstill read.\n")
    end

    it 'reads a file without its %PDF- header line' do
      expect(convert(make_pdf(*two_pages).delete_prefix("%PDF-1.4\n"))).to eq(both_read)
    end

    it 'still says a file with no objects at all is broken' do
      expect { convert("%PDF-1.7\nnothing else\nstartxref\n9\n%%EOF\n", 'broken.pdf') }
        .to raise_error(RubyLLM::FileStore::ConversionError, /broken\.pdf.*broken/)
    end
  end

  it 'reads a file encrypted with the empty password (RC4) whose trailer has no /ID' do
    expect(convert(encrypted_pdf_without_id("Encrypted, and no ID\nin the trailer.")))
      .to eq("## Page 1\n\nEncrypted, and no ID\nin the trailer.\n")
  end

  it 'reads a file that encrypts its attachments alone, whatever their password' do
    expect(convert(pdf_encrypting_attachments_only("Only the attachments\nare sealed.")))
      .to eq("## Page 1\n\nOnly the attachments\nare sealed.\n")
  end

  it 'reads an AES-128 file (V 4) whose /Encrypt dictionary has no /Length' do
    expect(convert(Aes128Pdf.new("AES-128 and\nno key length.").bytes))
      .to eq("## Page 1\n\nAES-128 and\nno key length.\n")
  end

  it 'answers nil, not an error, for a catalog with no pages' do
    bytes = make_pdf('unused')
    expect(convert(bytes.sub('/Kids [5 0 R] /Count 1', '/Kids [] /Count 0     '))).to be_nil
  end

  context 'with content streams through the standard filters' do
    {
      'FlateDecode' => [['FlateDecode']],
      'FlateDecode with a PNG predictor' => [['FlateDecode'], { Predictor: 15, Columns: 24 }],
      'FlateDecode with a TIFF predictor' => [['FlateDecode'], { Predictor: 2, Columns: 24 }],
      'LZWDecode, EarlyChange 1' => [['LZWDecode']],
      'LZWDecode, EarlyChange 0' => [['LZWDecode'], { EarlyChange: 0 }],
      'LZWDecode with a PNG predictor' => [['LZWDecode'], { Predictor: 12, Columns: 31 }],
      'ASCII85Decode' => [['ASCII85Decode']],
      'ASCIIHexDecode' => [['ASCIIHexDecode']],
      'RunLengthDecode' => [['RunLengthDecode']],
      'ASCIIHexDecode then FlateDecode' => [%w[ASCIIHexDecode FlateDecode]],
      'ASCII85Decode then LZWDecode' => [%w[ASCII85Decode LZWDecode]],
      'ASCII85Decode then FlateDecode with a predictor' =>
        [%w[ASCII85Decode FlateDecode], [nil, { Predictor: 15, Columns: 10 }]],
      'RunLengthDecode then ASCIIHexDecode' => [%w[RunLengthDecode ASCIIHexDecode]]
    }.each do |label, (filters, parms)|
      it "reads #{label}" do
        expect(convert(filtered_pdf(long_text, filters, parms:))).to eq(long_read)
      end
    end

    it 'reads a /Filter and a /Length written through indirect references' do
      expect(convert(filtered_pdf(long_text, %w[ASCIIHexDecode FlateDecode], indirect: true))).to eq(long_read)
    end
  end
end
