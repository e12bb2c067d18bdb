# frozen_string_literal: true

require 'zlib'

# The encoders of PDF's standard filters, written for the specs so each
# crafted stream can carry any filter chain: the reader must undo them.
module PdfFilterEncoders
  module_function

  def flate(data) = Zlib::Deflate.deflate(data)

  def ascii_hex(data) = "#{data.unpack1('H*')}>"

  # Groups of four bytes as five digits from '!', 'z' for four zeros.
  def ascii85(data)
    out = +''
    data.b.bytes.each_slice(4) do |group|
      n = group.size
      value = (group + [0] * (4 - n)).pack('C4').unpack1('N')
      next out << 'z' if n == 4 && value.zero?

      digits = 4.downto(0).map { |i| ((value / (85**i)) % 85) + 33 }
      out << digits.pack('C*')[0, n + 1]
    end
    "#{out}~>"
  end

  # Literal runs of up to 128 bytes and repeats of up to 128, then 128 (EOD).
  def run_length(data)
    out = +''.b
    bytes = data.b.bytes
    i = 0
    while i < bytes.size
      run = 1
      run += 1 while i + run < bytes.size && bytes[i + run] == bytes[i] && run < 128
      if run > 1
        out << [257 - run, bytes[i]].pack('C2')
        i += run
        next
      end
      j = i + 1
      j += 1 while j < bytes.size && j - i < 128 && bytes[j] != bytes[j - 1]
      j -= 1 if j - i > 1 && j < bytes.size && bytes[j] == bytes[j - 1]
      out << [j - i - 1].pack('C') << bytes[i...j].pack('C*')
      i = j
    end
    out << 128.chr
  end

  # LZW with codes of 9 to 12 bits, a clear code first and the end code
  # last; with +early+ (EarlyChange 1) the width grows one code early.
  def lzw(data, early: true)
    bits = BitWriter.new
    table = (0..255).to_h { |i| [i.chr.b, i] }
    next_code = 258
    width = 9
    bits.write(256, width)
    word = +''.b
    data.b.each_char do |c|
      next word << c if table.key?(word + c)

      bits.write(table.fetch(word), width)
      table[word + c] = next_code
      next_code += 1
      width += 1 if next_code + (early ? 1 : 0) > (1 << width) && width < 12
      word = c.dup
    end
    bits.write(table.fetch(word), width) unless word.empty?
    bits.write(257, width)
    bits.bytes
  end

  # PNG rows of +columns+ bytes, each tagged with a filter type in turn
  # (None, Sub, Up, Average, Paeth), as Predictor 15 allows.
  def png_predicted(data, columns:)
    previous = [0] * columns
    data.b.bytes.each_slice(columns).each_with_index.map do |row, n|
      row += [0] * (columns - row.size)
      kind = n % 5
      encoded = row.each_with_index.map do |b, i|
        left = i.zero? ? 0 : row[i - 1]
        corner = i.zero? ? 0 : previous[i - 1]
        (b - png_guess(kind, left, previous[i], corner)) & 255
      end
      previous = row
      ([kind] + encoded).pack('C*')
    end.join
  end

  # Each byte less the one before it in its row (TIFF Predictor 2, one
  # 8-bit component).
  def tiff_predicted(data, columns:)
    data.b.bytes.each_slice(columns).map do |row|
      row.each_with_index.map { |b, i| (b - (i.zero? ? 0 : row[i - 1])) & 255 }.pack('C*')
    end.join
  end

  def png_guess(kind, left, up, corner)
    case kind
    when 1 then left
    when 2 then up
    when 3 then (left + up) / 2
    when 4 then paeth(left, up, corner)
    else 0
    end
  end

  def paeth(left, up, corner)
    p = left + up - corner
    a = (p - left).abs
    b = (p - up).abs
    c = (p - corner).abs
    return left if a <= b && a <= c

    b <= c ? up : corner
  end

  # Bits written high first.
  class BitWriter
    def initialize
      @out = +''.b
      @acc = 0
      @count = 0
    end

    def write(code, width)
      @acc = (@acc << width) | code
      @count += width
      while @count >= 8
        @count -= 8
        @out << ((@acc >> @count) & 255).chr
      end
      @acc &= (1 << @count) - 1
    end

    def bytes
      @count.positive? ? @out + ((@acc << (8 - @count)) & 255).chr : @out
    end
  end
end
