# frozen_string_literal: true

RSpec.describe RubyLLM::FileStore::ChatFiles::Keeper do
  on_every_store do
    let(:keeper) { described_class.new(store) }

    it 'keeps a file under its name, and a different file with the same name under a number' do
      first, written_first = keeper.keep('report.pdf', '%PDF-1 one')
      second, written_second = keeper.keep('report.pdf', '%PDF-1 two')
      third, = keeper.keep('report.pdf', '%PDF-1 three')
      expect([first.path, second.path, third.path]).to eq(%w[report.pdf report-2.pdf report-3.pdf])
      expect([written_first, written_second]).to eq([true, true])
      expect(store.read('report-2.pdf')).to eq('%PDF-1 two')
    end

    it 'keeps an attachment at the path the store remembers for it, even after the file changed' do
      kept, = keeper.keep_attachment('brief.txt', "A draft brief.\n")
      store.write('brief.txt', "A final brief, longer.\n")
      again, written = described_class.new(store).keep_attachment('brief.txt', "A draft brief.\n")
      other, = described_class.new(store).keep_attachment('brief.txt', "Another brief.\n")
      expect([kept.path, again.path, again.byte_size, written, other.path])
        .to eq(['brief.txt', 'brief.txt', 15, false, 'brief-2.txt'])
    end

    it 'keeps the same bytes once' do
      keeper.keep('notes.md', "# a\n")
      keeper.keep('notes.md', "# b\n")
      again, written = keeper.keep('notes.md', "# b\n")
      expect([again.path, written, store.list.map(&:path)]).to eq(['notes-2.md', false, %w[notes-2.md notes.md]])
    end

    it 'numbers names in folders and names without an extension' do
      keeper.keep('results/a.json', '1')
      keeper.keep('Makefile', 'a')
      expect([keeper.keep('results/a.json', '2').first.path, keeper.keep('Makefile', 'b').first.path])
        .to eq(%w[results/a-2.json Makefile-2])
    end
  end

  it 'passes over a name a folder has, in stores that keep folders and files apart' do
    Dir.mktmpdir do |dir|
      [RubyLLM::FileStore::Memory.new, RubyLLM::NativeDir.new(dir)].each do |store|
        store.write('data.csv/inner.txt', 'x')
        expect(described_class.new(store).keep('data.csv', 'a,b').first.path).to eq('data-2.csv')
      end
      # A mount point is a folder even with no file in it.
      mounts = RubyLLM::FileStore::Mounts.new(RubyLLM::FileStore::Memory.new,
                                              'data.csv' => RubyLLM::FileStore::Memory.new)
      expect(described_class.new(mounts).keep('data.csv', 'a,b').first.path).to eq('data-2.csv')
    end
  end

  it "raises a store's other refusals at once instead of trying every number" do
    # A store whose write refuses for a reason of its own, as json 3 refused
    # Rails 8.1.3.1's JSON.parse(json, options): tried 10,000 times and
    # answered "no free name" before.
    store = Class.new(RubyLLM::FileStore::Memory) do
      def writes = (@writes ||= 0)

      def write(*)
        @writes = writes + 1
        raise ArgumentError, 'wrong number of arguments (given 2, expected 1)'
      end
    end.new
    expect { described_class.new(store).keep('data.csv', 'a,b') }
      .to raise_error(ArgumentError, 'wrong number of arguments (given 2, expected 1)')
    expect(store.writes).to eq(1)
  end

  describe 'with a blob' do
    # A memory store that keeps blobs as Active Storage's does, recording them.
    let(:store) do
      Class.new(RubyLLM::FileStore::Memory) do
        def kept_blobs = (@kept_blobs ||= [])

        def keep_blob(path, blob, content_type: nil)
          kept_blobs << [path, blob.id]
          write(path, blob.bytes, content_type:)
        end
      end.new
    end
    let(:blob_class) { Struct.new(:id, :bytes, :persisted?) }

    it 'keeps a saved blob by keep_blob, once, and a different one under a number' do
      keeper = described_class.new(store)
      keeper.keep('a.pdf', '%PDF one', blob: blob_class.new(1, '%PDF one', true))
      _, written = keeper.keep('a.pdf', '%PDF one', blob: blob_class.new(1, '%PDF one', true))
      keeper.keep('a.pdf', '%PDF two', blob: blob_class.new(2, '%PDF two', true))
      expect([store.kept_blobs, written]).to eq([[['a.pdf', 1], ['a-2.pdf', 2]], false])
    end

    it 'writes the bytes for a blob that is not saved, or for a store without keep_blob' do
      described_class.new(store).keep('a.pdf', '%PDF one', blob: blob_class.new(nil, '%PDF one', false))
      memory = RubyLLM::FileStore::Memory.new
      described_class.new(memory).keep('a.pdf', '%PDF one', blob: blob_class.new(1, '%PDF one', true))
      expect([store.kept_blobs, store.read('a.pdf'), memory.read('a.pdf')]).to eq([[], '%PDF one', '%PDF one'])
    end
  end

  describe '.safe_name' do
    it 'keeps the last part of a name, without control characters or leading dots' do
      expect(described_class.safe_name('C:\\Users\\dana\\report.pdf')).to eq('report.pdf')
      expect(described_class.safe_name('../../etc/passwd')).to eq('passwd')
      expect(described_class.safe_name(".env\n")).to eq('env')
      expect(described_class.safe_name("a\tb.md")).to eq('ab.md')
    end

    it 'names a file with no usable name "attachment"' do
      expect([nil, '', '..', '/'].map { |name| described_class.safe_name(name) }).to all(eq('attachment'))
    end
  end
end
