# frozen_string_literal: true

require 'zlib'
require_relative 'encrypted_pdf'

# Small PDFs written for the PdfText specs: one page per string of text (nil
# for a page with an image and no text), Helvetica, uncompressed.
module PdfFixtures
  FIXTURES = File.expand_path('../../../fixtures/pdf', __dir__)

  def pdf_fixture(name) = File.binread(File.join(FIXTURES, name))

  def make_pdf(*pages, extra: [])
    objects = ['<< /Type /Catalog /Pages 2 0 R >>', nil,
               '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>']
    kids = pages.map do |text|
      content = text ? page_content(text) : "q 100 0 0 100 0 0 cm 0.5 g 0 0 1 1 re f Q\n"
      objects << "<< /Length #{content.bytesize} >>\nstream\n#{content}endstream"
      objects << "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents #{objects.size} 0 R " \
                 '/Resources << /Font << /F1 3 0 R >> >> >>'
      "#{objects.size} 0 R"
    end
    objects[1] = "<< /Type /Pages /Kids [#{kids.join(' ')}] /Count #{kids.size} >>"
    serialize(objects + extra)
  end

  # A one-page PDF with an extra stream object of /Type +type+ whose
  # Flate data inflates to +zeros+ zero bytes (a decompression bomb).
  def make_pdf_with(type, zeros:)
    bomb = zlib_zeros(zeros)
    stream = "<< /Type /#{type} /Filter /FlateDecode /Length #{bomb.bytesize} >>\nstream\n".b + bomb + "\nendstream".b
    make_pdf('Some text on the page.', extra: [stream])
  end

  # A one-page PDF whose cross-reference section is a stream that inflates
  # to +zeros+ zero bytes: the reader meets it before any object. +more+
  # goes into its dictionary after the type.
  def make_pdf_with_xref_bomb(zeros:, more: '')
    bomb = zlib_zeros(zeros)
    body = make_pdf('Some text on the page.')[/\A.*?(?=^xref$)/m]
    offset = body.bytesize
    body + "99 0 obj\n<< /Type /XRef #{more}/Size 100 /W [1 4 2] /Root 1 0 R /Filter /FlateDecode " \
           "/Length #{bomb.bytesize} >>\nstream\n".b + bomb + "\nendstream\nendobj\nstartxref\n#{offset}\n%%EOF\n".b
  end

  # A one-page PDF encrypted with the empty password whose object 7 sits
  # in an object stream of +payload+ then +zeros+ zero bytes (EncryptedPdf).
  def make_encrypted_pdf_with_objstm(payload, zeros: 0)
    EncryptedPdf.new(objstm: zlib_zeros(zeros, payload), content: page_content('Some text on the page.')).bytes
  end

  private

  # +count+ zero bytes deflated, a megabyte at a time so they are never all
  # in memory.
  def zlib_zeros(count, prefix = '')
    z = Zlib::Deflate.new(Zlib::BEST_COMPRESSION)
    chunk = "\0" * (1 << 20)
    out = z.deflate(prefix).b
    (count >> 20).times { out << z.deflate(chunk) }
    out << z.finish
  end

  def page_content(text)
    lines = text.lines(chomp: true).map { |line| "(#{line.gsub(/[()\\]/) { |c| "\\#{c}" }}) Tj 0 -14 Td" }
    "BT /F1 12 Tf 72 720 Td #{lines.join(' ')} ET\n"
  end

  def serialize(objects)
    out = +"%PDF-1.4\n".b
    offsets = objects.each_with_index.map do |body, i|
      offset = out.bytesize
      out << "#{i + 1} 0 obj\n#{body}\nendobj\n"
      offset
    end
    xref = out.bytesize
    out << "xref\n0 #{objects.size + 1}\n0000000000 65535 f \n"
    offsets.each { |offset| out << format("%010d 00000 n \n", offset) }
    out << "trailer\n<< /Size #{objects.size + 1} /Root 1 0 R >>\nstartxref\n#{xref}\n%%EOF\n"
  end
end
