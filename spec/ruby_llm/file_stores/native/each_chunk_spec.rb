# frozen_string_literal: true

require 'tmpdir'

# each_chunk on Memory, which keeps the base version (it yields read's
# String), and NativeDir, which streams (its own specs:
# spec/ruby_llm/native_dir/streaming_spec.rb); and TextStream, the native pass the Active Storage store streams
# files through (its own specs: spec/active_storage/streams_spec.rb).
RSpec.describe RubyLLM::FileStores::Native::StoreMethods, '#each_chunk' do
  around { |example| Dir.mktmpdir('each-chunk') { |dir| (@dir = dir) && example.run } }

  stores = { 'Memory' => -> { RubyLLM::FileStore::Memory.new }, 'NativeDir' => -> { RubyLLM::NativeDir.new(@dir) } }
  stores.each do |name, make|
    it "yields the file's bytes in order and returns nil (#{name})" do
      store = instance_exec(&make)
      store.write('data.bin', "a\u00e9\0b".b * 1000)
      chunks = []
      expect(store.each_chunk('data.bin') { |chunk| chunks << chunk.dup }).to be_nil
      expect(chunks.join.b).to eq("a\u00e9\0b".b * 1000)
      expect(store.each_chunk('data.bin').map(&:dup).join.b).to eq("a\u00e9\0b".b * 1000)
      expect { store.each_chunk('missing.txt') { nil } }.to raise_error(RubyLLM::FileNotFoundError)
    end
  end
end

RSpec.describe RubyLLM::FileStores::Native::TextStream do
  let(:text) { (1..150_000).map { |n| "line #{n}\n" }.join }

  def window(text, offset, limit, chunk: 65_536, **options)
    stream = described_class.start({ offset:, limit:, max_chars: nil },
                                   { from_line: nil, digest: true, index: true, **options })
    (0...text.bytesize).step(chunk) { |at| stream.push(text.byteslice(at, chunk)) }
    [stream.finish, stream]
  end

  it 'gives the window, digest, size and line index of the whole, pushed in chunks' do
    shown, stream = window(text, 149_999, 5)
    expect(shown.to_h).to include(text: "line 149999\nline 150000\n", shown: 2, total: 150_000, cut: false)
    expect(stream.digest).to eq(Digest::SHA256.hexdigest(text))
    expect(stream.byte_size).to eq(text.bytesize)
    index = stream.line_index
    expect(index['total']).to eq(150_000)
    expect(index['offsets']).not_to be_empty
    index['lines'].zip(index['offsets']).each do |line, offset|
      expect(text.byteslice(offset, 20)).to start_with("line #{line}\n")
    end
  end

  it 'reads from an indexed line and says when it wants no more' do
    _, whole = window(text, 1, 0)
    line, offset = whole.line_index.values_at('lines', 'offsets').map(&:first)
    stream = described_class.start({ offset: line + 2, limit: 2, max_chars: nil },
                                   { from_line: line, digest: false, index: false })
    expect(stream.push(text.byteslice(offset, 100_000))).to be(false)
    expect(stream.finish.text).to eq("line #{line + 2}\nline #{line + 3}\n")
    expect { stream.push('more') }.to raise_error(RuntimeError, /finished/)
  end

  it 'has no index for UTF-16, and decodes it' do
    utf16 = "\xFF\xFE".b + "one\ntwo\n".encode(Encoding::UTF_16LE).b
    shown, stream = window(utf16, 2, 1, chunk: 3)
    expect(shown.text).to eq("two\n")
    expect(stream.line_index).to be_nil
  end
end
