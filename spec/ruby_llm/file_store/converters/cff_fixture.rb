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

  def bytes
    head = [1, 0, 4, 1].pack('C*') + index(['Fixture']) # rubocop:disable Style/StringConcatenation
    strings = index(@names)
    gsubrs = [0].pack('n')
    # The Top DICT's offsets are 5-byte integers, so its size is known first.
    top_size = index([top_dict(0, 0, 0, 0)]).bytesize
    charset_at = head.bytesize + top_size + strings.bytesize + gsubrs.bytesize
    charset = [0].pack('C') + (0...@names.size).map { |i| 391 + i }.pack('n*')
    encoding_at = charset_at + charset.bytesize
    encoding = [0, @names.size].pack('CC') + (0...@names.size).map { |i| @first + i }.pack('C*')
    glyphs_at = encoding_at + encoding.bytesize
    glyphs = index(Array.new(@names.size + 1) { [14].pack('C') })
    private_at = glyphs_at + glyphs.bytesize
    private_dict = [139, 20].pack('CC') # defaultWidthX 0
    top = index([top_dict(charset_at, encoding_at, glyphs_at, private_at, private_dict.bytesize)])
    head + top + strings + gsubrs + charset + encoding + glyphs + private_dict
  end

  private

  def top_dict(charset, encoding, glyphs, private_at, private_size = 0)
    int(charset) + [15].pack('C') + int(encoding) + [16].pack('C') + int(glyphs) + [17].pack('C') +
      int(private_size) + int(private_at) + [18].pack('C')
  end

  def int(value) = [29, value].pack('CN')

  def index(items)
    items = items.map(&:b)
    offsets = items.each_with_object([1]) { |item, acc| acc << (acc.last + item.bytesize) }
    [items.size, 4].pack('nC') + offsets.pack('N*') + items.join
  end
end
