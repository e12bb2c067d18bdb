# frozen_string_literal: true

require_relative 'pdf_fixtures'
require_relative 'pdf_filter_encoders'

# Damaged PDFs, as broken generators, cut downloads and hand edits leave
# them, and streams through every standard filter, built from the
# well-formed files of PdfFixtures.
module PdfRecoveryFixtures
  include PdfFixtures

  # +startxref+ pointing into the middle of an object.
  def pdf_with_wrong_startxref(*pages)
    make_pdf(*pages).sub(/startxref\n\d+/, "startxref\n12")
  end

  # No cross-reference table, trailer or startxref: the objects alone.
  def pdf_without_trailer(*pages)
    make_pdf(*pages)[/\A.*?(?=^xref$)/m]
  end

  # A table whose offsets are all off by +shift+ bytes (a file re-saved
  # with other line endings, or edited by hand).
  def pdf_with_wrong_offsets(*pages, shift: 7)
    make_pdf(*pages).gsub(/^(\d{10}) (\d{5}) n/) do
      format('%<offset>010d %<generation>s n', offset: Regexp.last_match(1).to_i + shift,
                                               generation: Regexp.last_match(2))
    end
  end

  # Each page's content stream with a /Length that misses its endstream
  # (half its size, written in as many digits: every offset stays right).
  def pdf_with_wrong_lengths(*pages)
    make_pdf(*pages).gsub(%r{<< /Length (\d+) >>\nstream}) do
      length = Regexp.last_match(1)
      "<< /Length #{format('%0*d', length.size, length.to_i / 2)} >>\nstream"
    end
  end

  # A trailer without /Size (which lopdf requires), and the catalog's
  # header on the line of the comment before it ("%PDF-1.4|1 0 obj", where
  # no scan for headers takes it for one): only the table says where it is.
  # Every offset stays right.
  def pdf_without_size_catalog_after_comment(*pages)
    make_pdf(*pages).sub("%PDF-1.4\n1 0 obj", '%PDF-1.4|1 0 obj').sub(%r{/Size \d+ }, '')
  end

  # A trailer dictionary nested 10,000 deep (qpdf's issue-202, a
  # stack-overflow test), the objects well formed.
  def pdf_with_deep_trailer(*pages)
    make_pdf(*pages).sub('/Root 1 0 R >>', "/Root 1 0 R /Deep #{'[' * 10_000}#{']' * 10_000} >>")
  end

  # The pages' font, the last object before the table (as in pdfium's
  # bug_1893), with its dictionary not closed before its endobj. Up to 4
  # pages, so every offset stays right.
  def pdf_with_unclosed_font(*pages)
    font = '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding'
    make_pdf(*pages, extra: [font]).gsub('/F1 3 0 R', "/F1 #{(pages.size * 2) + 4} 0 R")
  end

  # A download cut in the middle of the last page's content stream.
  def truncated_pdf(*pages)
    full = make_pdf(*pages)
    last = full.rindex('BT /F1')
    full[0, last + 10]
  end

  # Encrypted with the empty password (RC4), its trailer without /ID.
  def encrypted_pdf_without_id(text)
    EncryptedPdf.new(objstm: Zlib::Deflate.deflate('7 0 << /Unused true >>'), content: page_content(text),
                     id: nil).bytes
  end

  # Encrypted for its attachments alone (V 5, R 6, /EFF, /StmF and /StrF
  # /Identity, as qpdf's --encrypt ... --cleartext-metadata attachments
  # writes): a user password that is not empty, and the page's text plain.
  def pdf_encrypting_attachments_only(text)
    salt = Random.new(11).bytes(48).unpack1('H*')
    encrypt = '<< /Filter /Standard /V 5 /R 6 /Length 256 /P -1028 /EncryptMetadata false ' \
              '/CF << /StdCF << /AuthEvent /EFOpen /CFM /AESV3 /Length 32 >> >> /EFF /StdCF ' \
              "/StmF /Identity /StrF /Identity /U <#{salt}> /O <#{salt}> /UE <#{salt[0, 64]}> " \
              "/OE <#{salt[0, 64]}> /Perms <#{salt[0, 32]}> >>"
    make_pdf(text, extra: [encrypt]).sub('/Root 1 0 R', '/Root 1 0 R /Encrypt 6 0 R')
  end

  # One page whose content stream goes through +filters+ (applied last
  # first, so the reader undoes them in the order written), with +parms+ as
  # its /DecodeParms; the /Filter and /Length written directly or, with
  # +indirect+, through references to objects 6 and 7.
  def filtered_pdf(text, filters, parms: nil, indirect: false)
    data = encoded(page_content(text).b, filters, parms)
    names = "[#{filters.map { |f| "/#{f}" }.join(' ')}]"
    keys = indirect ? '/Filter 6 0 R /Length 7 0 R' : "/Filter #{names} /Length #{data.bytesize}"
    keys += " /DecodeParms #{dictionary(parms)}" if parms
    objects = ['<< /Type /Catalog /Pages 2 0 R >>', '<< /Type /Pages /Kids [5 0 R] /Count 1 >>',
               '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>',
               "<< #{keys} >>\nstream\n".b + data + "\nendstream".b,
               '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R ' \
               '/Resources << /Font << /F1 3 0 R >> >> >>']
    objects += [names, data.bytesize.to_s] if indirect
    serialize(objects)
  end

  private

  # +bytes+ through +filters+ encoded, the last first.
  def encoded(bytes, filters, parms)
    filters.each_index.reverse_each.reduce(bytes) do |data, i|
      encode(filters[i], data, parms.is_a?(Array) ? parms[i] : parms)
    end
  end

  def encode(filter, bytes, parms)
    e = PdfFilterEncoders
    case filter
    when 'FlateDecode' then e.flate(predict(bytes, parms))
    when 'LZWDecode' then e.lzw(predict(bytes, parms), early: (parms || {}).fetch(:EarlyChange, 1) == 1)
    when 'ASCII85Decode' then e.ascii85(bytes)
    when 'ASCIIHexDecode' then e.ascii_hex(bytes)
    when 'RunLengthDecode' then e.run_length(bytes)
    else raise ArgumentError, filter
    end
  end

  def predict(bytes, parms)
    case parms && parms[:Predictor]
    when nil, 1 then bytes
    when 2 then PdfFilterEncoders.tiff_predicted(bytes, columns: parms.fetch(:Columns))
    else PdfFilterEncoders.png_predicted(bytes, columns: parms.fetch(:Columns))
    end
  end

  def dictionary(parms)
    return "[#{parms.map { |p| p ? dictionary(p) : 'null' }.join(' ')}]" if parms.is_a?(Array)

    "<< #{parms.map { |k, v| "/#{k} #{v}" }.join(' ')} >>"
  end
end
