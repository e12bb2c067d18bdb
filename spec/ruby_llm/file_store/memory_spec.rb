# frozen_string_literal: true

RSpec.describe RubyLLM::FileStore::Memory do
  subject(:store) { described_class.new }

  def full_store(max_bytes) = described_class.new(max_bytes:)

  it_behaves_like 'a file store'
  it_behaves_like 'a store with folders'
  it_behaves_like 'a store that moves files'
  it_behaves_like 'a store with one text per file'

  context 'with read_only: true' do
    it_behaves_like 'a read-only store' do
      let(:writer) { described_class.new }
      let(:store) { writer.read_only_view }
    end

    it 'starts empty, and refuses a read_only: that is not true or false' do
      expect(described_class.new(read_only: true).list).to eq([])
      expect { described_class.new(read_only: 'yes') }.to raise_error(ArgumentError, /read_only must be true or false/)
    end

    it 'keeps read_only in the views for owners' do
      expect(store.read_only_view.for_owner(Struct.new(:id).new(1)).read_only?).to be(true)
      expect(store.read_only_view.read_only?).to be(true)
      expect(store.read_only?).to be(false)
    end
  end

  it 'moves without copying the bytes, keeping a content type given to write that the name did not give' do
    store.write('notes', 'x', content_type: 'application/x-custom')
    expect(store.move('notes', 'notes.md').content_type).to eq('application/x-custom')
  end

  it "moves an owner's own files, and refuses to move a shared one" do
    owner = Struct.new(:id).new(7)
    view = store.for_owner(owner)
    store.write('shared.md', 's')
    view.write('mine/a.md', 'a')
    expect(view.move('mine', 'ours').map(&:path)).to eq(['ours/a.md'])
    expect(store.list.map(&:path)).to eq(['shared.md'])
    expect { view.move('shared.md', 'taken.md') }.to raise_error(ArgumentError, /shared with everyone/)
    expect(store.read('shared.md')).to eq('s')
  end

  it 'keeps the content type it is given, and detects one otherwise' do
    expect(store.write('notes', 'x', content_type: 'text/x-custom').content_type).to eq('text/x-custom')
    expect(store.write('scan', "%PDF-1.7\n").content_type).to eq('application/pdf')
  end

  it 'has no local root' do
    expect(store.local_root).to be_nil
  end

  it 'does not let callers change stored bytes through what read or write saw' do
    content = +'original'
    store.write('a.txt', content)
    content << ' changed'
    store.read('a.txt') << ' changed too'
    expect(store.read('a.txt')).to eq('original')
  end

  it 'checks max_bytes' do
    expect { described_class.new(max_bytes: 0) }.to raise_error(ArgumentError, /max_bytes/)
    expect { described_class.new(max_bytes: '10') }.to raise_error(ArgumentError, /max_bytes/)
  end

  it 'is thread safe: 8 threads writing and listing lose nothing' do
    threads = Array.new(8) do |t|
      Thread.new do
        50.times do |i|
          store.write("t#{t}/f#{i}.txt", "#{t}-#{i}")
          store.list
        end
      end
    end
    threads.each(&:join)
    expect(store.list.size).to eq(400)
    expect(store.read('t7/f49.txt')).to eq('7-49')
  end

  it 'serialises with_lock across threads' do
    inside = 0
    overlaps = 0
    Array.new(4) do
      Thread.new do
        20.times do
          store.with_lock do
            inside += 1
            overlaps += 1 if inside > 1
            Thread.pass
            inside -= 1
          end
        end
      end
    end.each(&:join)
    expect(overlaps).to eq(0)
  end
end
