# frozen_string_literal: true

# A folder moved between stores (copy, then delete) whose store fails part
# of the way: the source is as it was, and nothing is left twice; a move
# between stores holding many files finishes with each file once.
RSpec.describe RubyLLM::FileStore::Mounts::Moving do
  include_context 'in a temporary folder'

  # A Memory store whose Nth write or delete from now on raises.
  let(:failing) do
    Class.new(RubyLLM::FileStore::Memory) do
      attr_accessor :writes_left, :deletes_left

      def write(path, content, content_type: nil)
        raise RubyLLM::FileStoreFullError, "#{path}: full" if countdown(:@writes_left)

        super
      end

      def delete(path)
        raise IOError, "#{path}: the disk went away" if countdown(:@deletes_left)

        super
      end

      private

      def countdown(name)
        left = instance_variable_get(name)
        return false if left.nil?

        instance_variable_set(name, left - 1)
        left == 1
      end
    end
  end

  # A store with only the five methods (and so the default copy-then-delete move).
  let(:five) do
    Class.new(RubyLLM::FileStore) do
      attr_accessor :deletes_left

      def initialize
        super
        @files = {}
      end

      def list(folder = nil)
        folder = RubyLLM::FileStore.folder(folder)
        @files.keys.sort.select { |path| folder.empty? || path.start_with?("#{folder}/") }.map { |path| self[path] }
      end

      def [](path)
        bytes = @files[RubyLLM::FileStore.path(path)]
        bytes && RubyLLM::StoredFile.new(path: RubyLLM::FileStore.path(path), byte_size: bytes.bytesize,
                                         content_type: 'text/plain')
      end

      def read(path) = @files.fetch(RubyLLM::FileStore.path(path)).dup

      def write(path, content, content_type: nil) # rubocop:disable Lint/UnusedMethodArgument
        @files[RubyLLM::FileStore.path(path)] = content.b
        self[path]
      end

      def delete(path)
        @deletes_left = deletes_left&.pred
        raise IOError, "#{path}: the disk went away" if deletes_left&.zero?

        file = self[path]
        @files.delete(file.path) if file
        file
      end
    end
  end

  let(:chat) { RubyLLM::FileStore::Memory.new }
  let(:target) { failing.new }
  let(:tree) { RubyLLM::FileStore::Mounts.new(chat, 'out' => target) }
  let(:read_tool) { RubyLLM::FileStore::Tools.for(tree, tools: [:read]).find { |tool| tool.name == 'read_file' } }

  def fill(store, count) = count.times { |i| store.write(format('big/f%04d.md', i), "file #{i}\n") }
  def contents(store) = store.list.to_h { |file| [file.path, store.read(file.path)] }

  it 'leaves the source as it was when a write into the other store fails half-way' do
    fill(chat, 50)
    before = contents(chat)
    target.writes_left = 25
    expect { tree.move('big', 'out/big') }.to raise_error(RubyLLM::FileStoreFullError, %r{out/big/f0024\.md})
    expect(contents(chat)).to eq(before)
    expect(target.list).to eq([])
  end

  it 'leaves the source as it was, reads and all, when a delete of the originals fails half-way' do
    fill(target, 50)
    read_tool.call('path' => 'out/big/f0003.md')
    before = contents(target)
    target.deletes_left = 20
    expect { tree.move('out/big', 'big') }.to raise_error(IOError, /f0019\.md: the disk went away/)
    expect(contents(target)).to eq(before)
    expect(chat.list).to eq([])
    expect(target.read_digest('big/f0003.md')).not_to be_nil
  end

  it 'a store with only the five methods: a delete failing half-way leaves its files as they were' do
    store = five.new
    fill(store, 10)
    before = contents(store)
    store.deletes_left = 4
    expect { store.move('big', 'moved') }.to raise_error(IOError)
    expect(contents(store)).to eq(before)
  end

  it 'refuses a move into a store with only the five methods through one of its files' do
    store = five.new
    store.write('q', 'a file')
    chat.write('z.md', 'z')
    expect { RubyLLM::FileStore::Mounts.new(chat, 'five' => store).move('z.md', 'five/q/z.md') }
      .to raise_error(ArgumentError, 'five/q/z.md goes through a file as if it were a folder')
    expect([store.list.map(&:path), chat.list.map(&:path)]).to eq([['q'], ['z.md']])
  end

  it 'moves a folder of 1,000 files between stores, and 50 off a NativeDir, each file once' do
    fill(chat, 1000)
    before = contents(chat)
    expect(tree.move('big', 'out/big').size).to eq(1000)
    expect([chat.list, contents(target)]).to eq([[], before])
    disk = RubyLLM::NativeDir.new(File.join(@tmp, 'disk'))
    fill(disk, 50)
    before = contents(disk)
    expect(RubyLLM::FileStore::Mounts.new(disk, 'm' => chat).move('big', 'm/big').size).to eq(50)
    expect([disk.list, contents(chat)]).to eq([[], before])
  end
end
