# frozen_string_literal: true

# The smallest TrueType program ttf-parser reads (head, hhea, maxp, and a
# cmap and post table given as bytes), for the embedded-font specs.
module TruetypeFixture
  module_function

  # An sfnt of +glyphs+ glyphs with the +cmap+ and +post+ tables given.
  def font(glyphs:, cmap:, post: nil)
    head = [0x10000, 0x10000, 0, 0x5F0F3CF5, 0, 1000, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]
           .pack('NNNNnnQ>Q>s>s>s>s>nnnnn')
    hhea = [0x10000, 800, -200, 0].pack('Ns>s>s>') + ("\0" * 24) + [1].pack('n')
    maxp = [0x5000, glyphs].pack('Nn')
    tables = { 'cmap' => cmap, 'head' => head, 'hhea' => hhea, 'maxp' => maxp }
    tables['post'] = post if post
    sfnt(tables)
  end

  # A cmap of one (3,10) format 12 subtable of +groups+: [first, last, glyph].
  def format12_cmap(groups) = cmap([[3, 10, format12(groups)]])

  def format12(groups)
    [12, 0, 16 + (12 * groups.size), 0, groups.size].pack('nnNNN') + groups.flatten.pack('N*')
  end

  # A format 6 subtable: codes from +first+ to glyphs +glyphs+.
  def format6(first, glyphs) = [6, 10 + (2 * glyphs.size), 0, first, glyphs.size, *glyphs].pack('n*')

  # A cmap of +subtables+: [platform, encoding, bytes].
  def cmap(subtables)
    offset = 4 + (8 * subtables.size)
    records = +''.b
    data = +''.b
    subtables.each do |platform, encoding, bytes|
      records << [platform, encoding, offset + data.bytesize].pack('nnN')
      data << bytes
    end
    [0, subtables.size].pack('nn') + records + data
  end

  # A post table version 2 naming glyph i with its own name i, +names+[i]
  # (past Macintosh's 258 standard names): ttf-parser finds each by walking
  # every name before it.
  def post_v2(names)
    header = [0x20000, 0, 0, 0, 0, 0, 0, 0, 0].pack('NNnnNNNNN')
    indexes = Array.new(names.size) { |i| 258 + i }.pack('n*')
    header + [names.size].pack('n') + indexes + names.map { |name| [name.bytesize].pack('C') + name }.join
  end

  def sfnt(tables)
    offset = 12 + (16 * tables.size)
    directory = +''.b
    data = +''.b
    tables.sort.each do |tag, bytes|
      directory << [tag, 0, offset + data.bytesize, bytes.bytesize].pack('a4NNN')
      data << pad(bytes)
    end
    [0x10000, tables.size, 0, 0, 0].pack('Nnnnn') + directory + data
  end

  def pad(bytes) = bytes.b + ("\0" * (-bytes.bytesize % 4))
end
