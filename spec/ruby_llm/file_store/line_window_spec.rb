# frozen_string_literal: true

require 'digest'

# RubyLLM::FileStore::LineWindow and #read_lines: the window read_file shows.
# NativeDir cuts it while it reads, in Rust; every other store from the
# file's bytes, in Rust too. Both must agree with the rule written the
# obvious way over the whole text (reference below) on any bytes.
RSpec.describe RubyLLM::FileStore::LineWindow, :native do
  include_context 'in a temporary folder'

  let(:native) { RubyLLM::NativeDir.new(File.join(@tmp, 'store')) }
  let(:memory) { RubyLLM::FileStore::Memory.new }

  def window(text, **opts) = described_class.of_text(text, **opts).to_h.slice(:text, :shown, :total, :cut)

  # The rule over the whole decoded text, as the Ruby code had it before
  # the window moved to Rust: a String per line.
  def reference(bytes, offset:, limit:, max_chars:)
    lines = RubyLLM::FileStores::Native.text_from_bytes(bytes).lines
    wanted = lines[offset - 1, limit || lines.size] || []
    shown = []
    budget = max_chars || Float::INFINITY
    wanted.each do |line|
      if shown.sum(&:size) + line.size > budget
        return { text: line[0, budget], shown: 1, total: lines.size, cut: true } if shown.empty?

        break
      end
      shown << line
    end
    { text: shown.join, shown: shown.size, total: lines.size, cut: false }
  end

  it 'agrees with the whole-text rule on every store, for UTF-8 and UTF-16 with a BOM' do
    rng = Random.new(20_261_201)
    units = ["a\0", "\n\0", "\0\xD8", "\0\xDC", "\x3D\xD8\x00\xDE", "\xE9\0", 'b'].map(&:b)
    utf8 = ['a', "\n", "\r\n", "\u00e9", "\xFF", "\xE3\x81", "\xEF\xBB\xBF"].map(&:b)
    300.times do |round|
      bom, pieces = [["\xFF\xFE", units], ["\xFE\xFF", units.map(&:reverse)], ["\xEF\xBB\xBF", utf8],
                     ['', utf8]][round % 4]
      bytes = bom.b + Array.new(rng.rand(0..20)) { pieces.sample(random: rng) }.join.b
      args = { offset: rng.rand(1..5), limit: [nil, rng.rand(0..4)].sample(random: rng),
               max_chars: [nil, rng.rand(1..8)].sample(random: rng) }
      expected = reference(bytes, **args)
      [native, memory].each do |store|
        store.write('f.txt', bytes)
        got = store.read_lines('f.txt', **args)
        expect(got.to_h.slice(:text, :shown, :total, :cut)).to eq(expected), "#{store.class} #{bytes.inspect} #{args}"
        expect(got.digest).to eq(Digest::SHA256.hexdigest(bytes))
      end
      text = RubyLLM::FileStores::Native.text_from_bytes(bytes)
      expect(window(text, first: args[:offset], limit: args[:limit], max_chars: args[:max_chars])).to eq(expected)
    end
  end

  it 'pages lines, counts them all, and cuts a first line longer than the limit' do
    expect(window("a\nb\nc", first: 2, limit: 1)).to eq(text: "b\n", shown: 1, total: 3, cut: false)
    expect(window("aaaa\nbbbb\ncc\n", max_chars: 9)).to eq(text: "aaaa\n", shown: 1, total: 3, cut: false)
    expect(window("#{'x' * 50}\ny\n", max_chars: 7)).to eq(text: 'x' * 7, shown: 1, total: 2, cut: true)
    expect(window('', first: 1)).to eq(text: '', shown: 0, total: 0, cut: false)
  end

  it 'agrees between NativeDir (streamed, in Rust) and the whole-text rule on random bytes' do
    rng = Random.new(20_261_130)
    pieces = ['a', 'bc', "\n", "\r\n", "\u00e9", "\u{1F600}", "\xFF", "\xE3\x81", "\xF0\x80", "\xEF\xBB\xBF"].map(&:b)
    300.times do |round|
      bytes = (pieces.first(rng.rand(1..pieces.size)) * 3).sample(rng.rand(0..30), random: rng).join.b
      bytes = "\xEF\xBB\xBF".b + bytes if round % 10 == 0 # a UTF-8 BOM, dropped by both
      native.write('f.txt', bytes)
      memory.write('f.txt', bytes)
      args = { offset: rng.rand(1..6), limit: [nil, rng.rand(0..4)].sample(random: rng),
               max_chars: [nil, rng.rand(1..12)].sample(random: rng) }
      expected = memory.read_lines('f.txt', **args)
      expect(native.read_lines('f.txt', **args)).to eq(expected), "#{bytes.inspect} #{args}"
      expect(expected.digest).to eq(Digest::SHA256.hexdigest(bytes))
    end
  end

  it 'reads UTF-16 with a BOM transcoded, on NativeDir too' do
    native.write('wide.txt', "\uFEFFone\ntwo\n".encode('UTF-16LE').b)
    got = native.read_lines('wide.txt', offset: 2)
    expect(got.to_h).to include(text: "two\n", shown: 1, total: 2, cut: false)
  end

  it 'checks its arguments, saying what they must be' do
    native.write('a.txt', "a\n")
    expect { native.read_lines('a.txt', offset: 0) }.to raise_error(ArgumentError, /offset must be an Integer from 1/)
    expect { memory.read_lines('a.txt', limit: -1) }.to raise_error(ArgumentError, /limit must be nil or an Integer/)
    expect { native.read_lines('a.txt', max_chars: '9') }.to raise_error(ArgumentError, /max_chars must be nil/)
    expect { native.read_lines('missing.txt') }.to raise_error(RubyLLM::FileNotFoundError)
    expect { native.read_lines('../a.txt') }.to raise_error(ArgumentError, /could leave the store/)
  end
end
