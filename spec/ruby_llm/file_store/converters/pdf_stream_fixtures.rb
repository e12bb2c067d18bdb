# frozen_string_literal: true

require 'zlib'
require_relative 'pdf_fixtures'

# Crafted PDFs for the content-stream guarantees (spec/guarantees/pdf_streams_spec.rb):
# one page drawn by streams of our choosing, built a megabyte at a time so
# the large ones are never whole in Ruby's memory.
module PdfStreamFixtures
  include PdfFixtures

  TEXT = 'Some text on the page.'
  # The page's text, drawn before whatever a case adds.
  SHOW_TEXT = "BT /F1 12 Tf 72 720 Td (#{TEXT}) Tj ET\n".b

  # A one-page PDF. +streams+ are the page's content streams, each a
  # dictionary's extra entries and its data; +contents+ lists their
  # indexes (0-based) as the page's /Contents, repeats allowed. +xobjects+
  # are forms (extra entries and data) the page may draw as /Fm0, /Fm1, ...
  def page_pdf(streams:, contents: (0...streams.size).to_a, xobjects: [])
    objects = ['<< /Type /Catalog /Pages 2 0 R >>', '<< /Type /Pages /Kids [3 0 R] /Count 1 >>', nil,
               '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>']
    first = objects.size + 1
    streams.each { |extra, data| objects << stream_object(extra, data) }
    forms = xobjects.each_with_index.map do |(extra, data), i|
      objects << stream_object("/Type /XObject /Subtype /Form /BBox [0 0 612 792] #{extra}", data)
      "/Fm#{i} #{objects.size} 0 R"
    end
    refs = contents.map { |i| "#{first + i} 0 R" }.join(' ')
    objects[2] = "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents [#{refs}] " \
                 "/Resources << /Font << /F1 4 0 R >> /XObject << #{forms.join(' ')} >> >> >>"
    serialize(objects)
  end

  # +head+, then +piece+ +count+ times, then +tail+, deflated a megabyte
  # at a time: [extra entries, data] for page_pdf.
  def deflated(piece, count, head: SHOW_TEXT, tail: '')
    z = Zlib::Deflate.new(Zlib::BEST_COMPRESSION)
    out = z.deflate(head.b).b
    per_chunk = [(1 << 20) / piece.bytesize, 1].max
    chunk = piece.b * per_chunk
    (count / per_chunk).times { out << z.deflate(chunk) }
    out << z.deflate(piece.b * (count % per_chunk)) << z.deflate(tail.b) << z.finish
    ['/Filter /FlateDecode', out]
  end

  # A one-page PDF with an unused object stream holding object 7: an array
  # of +count+ zeros (deflated a megabyte at a time).
  def unused_objstm_array(count)
    header = '7 0 '
    _, data = deflated('0 ', count, head: "#{header}[", tail: ']')
    make_pdf(TEXT, extra: [stream_object("/Type /ObjStm /N 1 /First #{header.bytesize} /Filter /FlateDecode", data)])
  end

  private

  def stream_object(extra, data)
    "<< #{extra} /Length #{data.bytesize} >>\nstream\n".b + data.b + "\nendstream".b
  end
end
