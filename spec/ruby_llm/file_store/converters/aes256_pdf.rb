# frozen_string_literal: true

require 'openssl'
require_relative 'pdf_fixtures'

# A one-page PDF encrypted with AES-256 (V 5, R 5: the key check is one
# SHA-256) and the empty user password, whose crypt filters are written
# through references (/CF 7 0 R, /StdCF 8 0 R) when +indirect+, as
# pdf.js's issue7665.pdf has them.
class Aes256Pdf
  include PdfFixtures

  def initialize(text, indirect: true)
    @text = text
    @indirect = indirect
    @key = Random.new(29).bytes(32)
  end

  def bytes
    cf = '<< /StdCF << /AuthEvent /DocOpen /CFM /AESV3 /Length 32 >> >>'
    serialize(['<< /Type /Catalog /Pages 2 0 R >>', '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
               '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R ' \
               '/Resources << /Font << /F1 5 0 R >> >> >>',
               content,
               '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>',
               encrypt(@indirect ? '7 0 R' : cf),
               '<< /StdCF 8 0 R >>', '<< /AuthEvent /DocOpen /CFM /AESV3 /Length 32 >>'])
      .sub('/Root 1 0 R', '/Root 1 0 R /Encrypt 6 0 R')
  end

  private

  def content
    vector = Random.new(7).bytes(16)
    data = vector + aes('AES-256-CBC', @key, page_content(@text), vector:, padding: true)
    "<< /Length #{data.bytesize} >>\nstream\n".b + data + "\nendstream".b
  end

  # The standard security handler's entries for the empty password: the
  # user and owner keys (hash, validation salt, key salt), the file key
  # wrapped by each, and the permissions sealed with it.
  def encrypt(filters)
    salts = Random.new(5).bytes(32)
    user = sha(salts[0, 8]) + salts[0, 16]
    owner = sha(salts[16, 8] + user) + salts[16, 16]
    "<< /Filter /Standard /V 5 /R 5 /Length 256 /P -4 /CF #{filters} /StmF /StdCF /StrF /StdCF " \
      "/U <#{hex(user)}> /UE <#{hex(wrap(sha(salts[8, 8])))}> /O <#{hex(owner)}> " \
      "/OE <#{hex(wrap(sha(salts[24, 8] + user)))}> /Perms <#{hex(perms)}> >>"
  end

  def wrap(with) = aes('AES-256-CBC', with, @key, vector: "\0" * 16)
  def perms = aes('AES-256-ECB', @key, [-4].pack('l<') + "\xFF\xFF\xFF\xFFTadb0000".b)

  def sha(data) = OpenSSL::Digest::SHA256.digest(data)
  def hex(data) = data.unpack1('H*')

  def aes(name, key, data, vector: nil, padding: false)
    cipher = OpenSSL::Cipher.new(name).encrypt
    cipher.key = key
    cipher.iv = vector if vector
    cipher.padding = 0 unless padding
    cipher.update(data) + cipher.final
  end
end
