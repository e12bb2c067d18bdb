# frozen_string_literal: true

require 'openssl'
require_relative 'pdf_fixtures'

# A one-page PDF encrypted with AES-128 (V 4, R 4, the AESV2 crypt filter)
# and the empty user password, whose /Encrypt dictionary has no /Length: the
# key is 128 bits by V 4's definition (the crypt filter's /Length 16 bytes),
# as pypdf's encryption_r4-aes-v2-no-key-length.pdf is written.
class Aes128Pdf
  include PdfFixtures

  PAD = ['28BF4E5E4E758A4164004E56FFFA01082E2E00B6D0683E802F0CA9FE6453697A'].pack('H*')
  ID = 'aes-128-document'.b
  OWNER = Random.new(3).bytes(32)

  def initialize(text)
    @text = text
    # Algorithm 2 with the empty password, 50 more MD5 rounds (R 3 and up).
    hash = md5(PAD + OWNER + [-4].pack('l<') + ID)
    50.times { hash = md5(hash) }
    @key = hash
  end

  def bytes
    serialize(['<< /Type /Catalog /Pages 2 0 R >>', '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
               '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R ' \
               '/Resources << /Font << /F1 5 0 R >> >> >>',
               content,
               '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>',
               '<< /Filter /Standard /V 4 /R 4 /P -4 /CF << /StdCF << /AuthEvent /DocOpen /CFM /AESV2 ' \
               "/Length 16 >> >> /StmF /StdCF /StrF /StdCF /O <#{hex(OWNER)}> /U <#{hex(user)}> >>"])
      .sub('/Root 1 0 R', "/Root 1 0 R /Encrypt 6 0 R /ID [<#{hex(ID)}> <#{hex(ID)}>]")
  end

  private

  # Object 4, sealed with its own key (Algorithm 1 with the AES salt).
  def content
    key = md5("#{@key}#{[4].pack('V')[0, 3]}#{[0].pack('v')}sAlT".b)
    vector = Random.new(7).bytes(16)
    cipher = OpenSSL::Cipher.new('AES-128-CBC').encrypt
    cipher.key = key
    cipher.iv = vector
    data = vector + cipher.update(page_content(@text)) + cipher.final
    "<< /Length #{data.bytesize} >>\nstream\n".b + data + "\nendstream".b
  end

  # Algorithm 5: the padding and ID hashed, sealed 20 times with the key.
  def user
    sealed = rc4(@key, md5(PAD + ID))
    (1..19).each { |i| sealed = rc4(@key.bytes.map { |b| b ^ i }.pack('C*'), sealed) }
    sealed + ("\0" * 16)
  end

  def md5(data) = OpenSSL::Digest::MD5.digest(data)
  def hex(data) = data.unpack1('H*')

  def rc4(key, data)
    s = schedule(key)
    i = j = 0
    data.bytes.map do |byte|
      i = (i + 1) & 255
      j = (j + s[i]) & 255
      s[i], s[j] = s[j], s[i]
      byte ^ s[(s[i] + s[j]) & 255]
    end.pack('C*')
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
