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
      value = (group + ([0] * (4 - n))).pack('C4').unpack1('N')
      next out << 'z' if n == 4 && value.zero?

      digits = 4.downto(0).map { |i| ((value / (85**i)) % 85) + 33 }
      out << digits.pack('C*')[0, n + 1]
    end
    "#{out}~>"
  end

  # Runs of one byte repeated as repeats, the rest as literals of up to
  # 128 bytes, then 128 (EOD).
  def run_length(data)
    runs = data.b.bytes.chunk_while { |a, b| a == b }.flat_map { |run| run.each_slice(128).to_a }
    literal = []
    out = runs.each_with_object(+''.b) do |run, bytes|
      next literal.concat(run) if run.size == 1

      bytes << literal_runs(literal) << [257 - run.size, run.first].pack('C2')
      literal = []
    end
    out << literal_runs(literal) << 128.chr
  end

  def literal_runs(bytes) = bytes.each_slice(128).map { |part| [part.size - 1, *part].pack('C*') }.join

  # LZW with codes of 9 to 12 bits, a clear code first and the end code
  # last; with +early+ (EarlyChange 1) the width grows one code early.
  def lzw(data, early: true)
    table = (0..255).to_h { |i| [i.chr.b, i] }
    codes = [256]
    word = data.b.each_char.reduce(+''.b) do |prefix, c|
      next prefix + c if table.key?(prefix + c)

      codes << table.fetch(prefix)
      table[prefix + c] = table.size + 2
      c.dup
    end
    codes << table.fetch(word) unless word.empty?
    packed(codes << 257, early ? 1 : 0)
  end

  # The codes high bit first, each as wide as the table it was written
  # with: 9 bits until code 511 (or 512 without early change) is added.
  def packed(codes, early)
    bits = BitWriter.new
    codes.each_with_index do |code, i|
      # The i-th code is written once i - 1 entries were added to the 258
      # (the end code after none more than the last word).
      size = 258 + [[i - 1, 0].max, codes.size - 3].min
      bits.write(code, (size + early - 1).bit_length.clamp(9, 12))
    end
    bits.bytes
  end

  # PNG rows of +columns+ bytes, each tagged with a filter type in turn
  # (None, Sub, Up, Average, Paeth), as Predictor 15 allows.
  def png_predicted(data, columns:)
    previous = [0] * columns
    data.b.bytes.each_slice(columns).with_index.map do |row, n|
      row += [0] * (columns - row.size)
      encoded = row.each_index.map { |i| (row[i] - png_guess(n % 5, row, previous, i)) & 255 }
      previous = row
      [n % 5, *encoded].pack('C*')
    end.join
  end

  # Each byte less the one before it in its row (TIFF Predictor 2, one
  # 8-bit component).
  def tiff_predicted(data, columns:)
    data.b.bytes.each_slice(columns).map do |row|
      row.each_with_index.map { |b, i| (b - (i.zero? ? 0 : row[i - 1])) & 255 }.pack('C*')
    end.join
  end

  def png_guess(kind, row, previous, index)
    left = index.zero? ? 0 : row[index - 1]
    corner = index.zero? ? 0 : previous[index - 1]
    above = previous[index]
    case kind
    when 1 then left
    when 2 then above
    when 3 then (left + above) / 2
    when 4 then paeth(left, above, corner)
    else 0
    end
  end

  def paeth(left, above, corner)
    guess = left + above - corner
    distances = [left, above, corner].map { |v| (guess - v).abs }
    [left, above, corner][distances.index(distances.min)]
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
