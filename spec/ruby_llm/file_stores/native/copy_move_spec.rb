# frozen_string_literal: true

require 'tmpdir'

# The copy a move between stores makes: a String for a small file, a spool on
# disk for a big one (the move itself: 'a store that moves files', mounts_spec).
RSpec.describe RubyLLM::FileStores::Native::CopyMove, '.copy_file' do
  around { |example| Dir.mktmpdir('copy-move') { |dir| (@dir = dir) && example.run } }

  let(:big) { Random.new(3).bytes((8 << 20) + 1) }

  def spools = Dir.glob(File.join(Dir.tmpdir, 'ruby_llm_file_store_copy*'))

  it 'copies a file over 8 MB through a Tempfile it removes, between any two stores' do
    native = RubyLLM::NativeDir.new(File.join(@dir, 'native'))
    memory = RubyLLM::FileStore::Memory.new
    before = spools
    source = native.write('big.bin', big)
    content = described_class.content_of(native, source)
    expect(content).to be_a(Tempfile)
    expect(content.read).to eq(big)
    content.close!
    copy = described_class.copy_file(native, source, memory, 'in/memory.bin', content_type: nil)
    expect(copy).to have_attributes(byte_size: big.bytesize, digest: source.digest)
    back = described_class.copy_file(memory, copy, native, 'back.bin', content_type: nil)
    expect(native.read('back.bin')).to eq(big)
    expect(back.digest).to eq(source.digest)
    expect(spools).to eq(before)
  end

  it 'reads a file up to 8 MB into a String' do
    memory = RubyLLM::FileStore::Memory.new
    file = memory.write('small.txt', 'small')
    expect(described_class.content_of(memory, file)).to eq('small')
  end

  it 'removes the spool when reading the source fails' do
    native = RubyLLM::NativeDir.new(File.join(@dir, 'native'))
    source = native.write('big.bin', big)
    before = spools
    allow(native).to receive(:each_chunk).and_raise(IOError, 'the disk went away')
    expect { described_class.content_of(native, source) }.to raise_error(IOError, 'the disk went away')
    expect(spools).to eq(before)
  end
end
