# frozen_string_literal: true

require_relative 'pdf_fixtures'
require_relative 'aes128_pdf'

# Encryption without an /ID or a key length, read through PdfText. The
# damaged files and filter chains are crafted beside the code that reads
# them: ext/file_stores_pdf/src/recover/crafted.rs and filters/crafted.rs.
RSpec.describe RubyLLM::FileStore::Converters::PdfText do
  include PdfFixtures

  def convert(bytes, name = 'doc.pdf')
    described_class.call(RubyLLM::FileStore::Converters::Input.new(content: bytes, filename: name,
                                                                   mime_type: 'application/pdf', path: name))
  end

  # Encrypted with the empty password (RC4), its trailer without /ID.
  def encrypted_pdf_without_id(text)
    EncryptedPdf.new(objstm: Zlib::Deflate.deflate('7 0 << /Unused true >>'), content: page_content(text),
                     id: nil).bytes
  end

  it 'reads an encrypted file (RC4, empty password, no /ID) whose startxref is wrong' do
    bytes = encrypted_pdf_without_id("Encrypted and damaged,\nstill read.").sub(/startxref\n\d+/, "startxref\n3")
    expect(convert(bytes)).to eq("## Page 1\n\nEncrypted and damaged,\nstill read.\n")
  end

  it 'reads a file encrypted with the empty password (RC4) whose trailer has no /ID' do
    expect(convert(encrypted_pdf_without_id("Encrypted, and no ID\nin the trailer.")))
      .to eq("## Page 1\n\nEncrypted, and no ID\nin the trailer.\n")
  end

  it 'reads an AES-128 file (V 4) whose /Encrypt dictionary has no /Length' do
    expect(convert(Aes128Pdf.new("AES-128 and\nno key length.").bytes))
      .to eq("## Page 1\n\nAES-128 and\nno key length.\n")
  end
end
