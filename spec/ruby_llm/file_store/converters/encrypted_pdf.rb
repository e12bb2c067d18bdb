# frozen_string_literal: true

require 'digest'

# A one-page PDF encrypted with the empty user password (the standard
# security handler, RC4 with a 40-bit key, revision 2), written by hand so
# a spec controls what only decryption reveals. Object 7 sits in an object
# stream (object 6) whose Flate data is +objstm+ ("7 0 " then the object),
# found through a cross-reference stream; the page's content stream is
# encrypted too, so reading its text shows the file was decrypted. With
# +id: nil+ the trailer has no /ID, and the key derives from an empty one.
class EncryptedPdf
  PAD = ['28BF4E5E4E758A4164004E56FFFA01082E2E00B6D0683E802F0CA9FE6453697A'].pack('H*')
  ID = 'fixed-document-id'.b.ljust(16, "\0")
  PERMISSIONS = -4

  def initialize(objstm:, content:, id: ID)
    # Algorithm 2 of the PDF spec with the empty password; O may be any 32
    # bytes, since only the user password is checked.
    @id = id
    @key = Digest::MD5.digest(PAD + PAD + [PERMISSIONS].pack('l<') + id.to_s)[0, 5]
    @objects = {
      1 => '<< /Type /Catalog /Pages 2 0 R >>',
      2 => '<< /Type /Pages /Kids [5 0 R] /Count 1 >>',
      3 => '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>',
      4 => stream(4, '', content),
      5 => '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R ' \
           '/Resources << /Font << /F1 3 0 R >> >> >>',
      6 => stream(6, '/Type /ObjStm /N 1 /First 4 /Filter /FlateDecode', objstm),
      8 => "<< /Filter /Standard /V 1 /R 2 /O <#{hex(PAD)}> /U <#{hex(rc4(@key, PAD))}> /P #{PERMISSIONS} >>"
    }
  end

  def bytes
    out = +"%PDF-1.5\n".b
    offsets = @objects.to_h do |num, body|
      offset = out.bytesize
      out << "#{num} 0 obj\n".b << body.b << "\nendobj\n".b
      [num, offset]
    end
    xref = out.bytesize
    out << xref_stream(offsets.merge(9 => xref)) << "startxref\n#{xref}\n%%EOF\n".b
  end

  private

  # Object 9: free 0, object 7 in object stream 6, the rest at offsets.
  def xref_stream(offsets)
    rows = (0..9).map do |num|
      next [0, 0, 65_535] if num.zero?
      next [2, 6, 0] if num == 7

      [1, offsets.fetch(num), 0]
    end
    data = rows.map { |row| row.pack('CNn') }.join
    id = @id && "/ID [<#{hex(@id)}> <#{hex(@id)}>] "
    "9 0 obj\n<< /Type /XRef /Size 10 /W [1 4 2] /Root 1 0 R /Encrypt 8 0 R #{id}" \
    "/Length #{data.bytesize} >>\nstream\n".b + data + "\nendstream\nendobj\n".b
  end

  # A stream encrypted with object +num+'s key (Algorithm 1).
  def stream(num, dict, data)
    object_key = Digest::MD5.digest(@key + [num].pack('V')[0, 3] + [0].pack('v'))[0, 10]
    sealed = rc4(object_key, data)
    "<< #{dict} /Length #{sealed.bytesize} >>\nstream\n".b + sealed + "\nendstream".b
  end

  def hex(bytes) = bytes.unpack1('H*')

  def rc4(key, data)
    s = schedule(key)
    i = j = 0
    out = data.b.dup
    out.bytesize.times do |n|
      i = (i + 1) & 255
      j = (j + s[i]) & 255
      s[i], s[j] = s[j], s[i]
      out.setbyte(n, out.getbyte(n) ^ s[(s[i] + s[j]) & 255])
    end
    out
  end

  def schedule(key)
    s = (0..255).to_a
    j = 0
    256.times do |i|
      j = (j + s[i] + key.getbyte(i % key.bytesize)) & 255
      s[i], s[j] = s[j], s[i]
    end
    s
  end
end
