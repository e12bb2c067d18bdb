# frozen_string_literal: true

# A compact (CFF) font program written byte by byte, for the PdfText specs:
# name-keyed, its glyphs empty (`endchar`), its built-in encoding giving code
# +first+ + i to glyph i + 1 of +names+ (CFF format 0 encoding and charset),
# every name kept in the String INDEX.
class CffFixture
  def initialize(names, first: 1)
    @names = names
    @first = first
  end

  HEADER = [1, 0, 4, 1].pack('C*')
  NO_SUBRS = [0].pack('n')
  PRIVATE_DICT = [139, 20].pack('CC') # defaultWidthX 0

  def bytes
    # The Top DICT's offsets are 5-byte integers, so its size is known first.
    start = front([0] * 5).bytesize
    offsets = tables.each_with_object([start]) { |table, acc| acc << (acc.last + table.bytesize) }
    front(offsets.first(4) + [PRIVATE_DICT.bytesize]) + tables.join
  end

  private

  # Format 0 charset and encoding: glyph i + 1 is string 391 + i, and code +first+ + i.
  # The header and the INDEXes before the tables, the Top DICT's offsets +offsets+.
  def front(offsets) = HEADER + index(['Fixture']) + index([top_dict(offsets)]) + index(@names) + NO_SUBRS

  def tables = [charset, encoding, index(Array.new(@names.size + 1) { [14].pack('C') }), PRIVATE_DICT]

  def charset
    [0].pack('C') + (0...@names.size).map { |i| 391 + i }.pack('n*')
  end

  def encoding
    [0, @names.size].pack('CC') + (0...@names.size).map { |i| @first + i }.pack('C*')
  end

  # +offsets+: the charset's, the encoding's, the CharStrings' and the
  # Private DICT's (defaultWidthX 0), then that dict's size.
  def top_dict(offsets)
    charset_at, encoding_at, glyphs_at, private_at, private_size = offsets
    int(charset_at) + [15].pack('C') + int(encoding_at) + [16].pack('C') + int(glyphs_at) + [17].pack('C') +
      int(private_size) + int(private_at) + [18].pack('C')
  end

  def int(value) = [29, value].pack('CN')

  def index(items)
    items = items.map(&:b)
    offsets = items.each_with_object([1]) { |item, acc| acc << (acc.last + item.bytesize) }
    [items.size, 4].pack('nC') + offsets.pack('N*') + items.join
  end
end
