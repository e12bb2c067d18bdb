# frozen_string_literal: true

require 'fileutils'

RSpec.describe 'A store with history (RubyLLM::FileStores::Native::History)' do
  include_context 'in a temporary folder'

  describe 'on a Memory store' do
    it_behaves_like 'a store with history' do
      let(:store) { RubyLLM::FileStore::Memory.new(history: true) }
      let(:without_history) { RubyLLM::FileStore::Memory.new }
      define_method(:keep_two) { RubyLLM::FileStore::Memory.new(history: { keep: 2 }) }
      define_method(:keep_for_a_minute) { RubyLLM::FileStore::Memory.new(history: { keep_for: 60 }) }
    end

    it 'records nothing for a change a read-only view refuses' do
      store = RubyLLM::FileStore::Memory.new(history: true)
      store.write('a.md', 'a')
      expect { store.read_only_view.write('a.md', 'b') }.to raise_error(RubyLLM::FileStore::ReadOnlyError)
      expect(store.versions('a.md').size).to eq(1)
    end

    it_behaves_like 'a store with history for owners' do
      let(:store) { RubyLLM::FileStore::Memory.new(history: true) }
      let(:first_owner) { Struct.new(:id).new(1) }
      let(:second_owner) { Struct.new(:id).new(2) }
    end

    it "records each tool's name as what made its change, and gives the model no history tool" do
      store = RubyLLM::FileStore::Memory.new(history: true)
      tools = RubyLLM::FileStore::Tools.for(store, tools: %i[read write edit move delete])
                                       .to_h { |tool| [tool.name, tool] }
      tools.fetch('write_file').call('path' => 'a.md', 'content' => "one\n")
      tools.fetch('read_file').call('path' => 'a.md')
      tools.fetch('edit_file').call('path' => 'a.md', 'old_text' => 'one', 'new_text' => 'two')
      expect(store.read('a.md')).to eq("two\n")
      tools.fetch('move_file').call('path' => 'a.md', 'new_path' => 'b.md')
      tools.fetch('delete_file').call('path' => 'b.md')
      expect(store.versions('a.md').map(&:by)).to eq(%w[move_file edit_file write_file])
      expect(store.versions('b.md').map(&:by)).to eq(%w[delete_file move_file])
      names = RubyLLM::FileStore::Tools.for(store).map(&:name)
      expect(names.grep(/history|version|rewind|checkpoint|restore/)).to eq([])
    end

    it "keeps no history of a chat's long tool results under results/" do
      store = RubyLLM::FileStore::Memory.new(history: true)
      long = RubyLLM::FileStore::ChatFiles::LongResults.new(store, limit: 1000)
      _, file = long.shape('search_files', 'x' * 5000)
      expect(file.path).to start_with('results/')
      expect(store.versions(file.path)).to eq([])
    end

    it 'records a version over max_version_bytes as not kept, never missing, and rewinds nothing past it' do
      store = RubyLLM::FileStore::Memory.new(history: { max_version_bytes: 10 })
      store.write('big.txt', 'x' * 100)
      checkpoint = store.checkpoint
      store.write('big.txt', 'small')
      big, = store.versions('big.txt').reverse
      expect(big).to have_attributes(kept?: false, byte_size: 100, change: :created)
      expect(store.versions('big.txt').first.kept?).to be(true)
      expect { store.read_version(big) }.to raise_error(RubyLLM::FileNotFoundError, /max_version_bytes/)
      expect { store.rewind(checkpoint) }.to raise_error(RubyLLM::FileStore::HistoryError)
      expect(store.read('big.txt')).to eq('small')
    end

    it 'refuses a history: it cannot read' do
      expect { RubyLLM::FileStore::Memory.new(history: 'yes') }.to raise_error(ArgumentError, /history:/)
      expect { RubyLLM::FileStore::Memory.new(history: { keep: 0 }) }.to raise_error(ArgumentError, /keep:/)
      expect { RubyLLM::FileStore::Memory.new(history: { kept: 1 }) }.to raise_error(ArgumentError, /kept/)
    end
  end

  describe 'on a NativeDir', :native do
    let(:root) { File.join(@tmp, 'store') }
    let(:history) { File.join(@tmp, 'history') }

    it_behaves_like 'a store with history' do
      let(:store) { RubyLLM::NativeDir.new(root, history:) }
      let(:without_history) { RubyLLM::NativeDir.new(File.join(@tmp, 'plain')) }
      define_method(:keep_two) do
        RubyLLM::NativeDir.new(File.join(@tmp, 'two'), history: { path: File.join(@tmp, 'two-history'), keep: 2 })
      end
      define_method(:keep_for_a_minute) do
        RubyLLM::NativeDir.new(File.join(@tmp, 'short'),
                               history: { path: File.join(@tmp, 'short-history'), keep_for: 60 })
      end
    end

    it 'refuses a history folder inside the store, or one holding it' do
      expect { RubyLLM::NativeDir.new(root, history: File.join(root, 'history')) }
        .to raise_error(ArgumentError, /inside the store's folder/)
      expect { RubyLLM::NativeDir.new(root, history: @tmp) }.to raise_error(ArgumentError, /inside the store's folder/)
      expect { RubyLLM::NativeDir.new(root, history: root) }.to raise_error(ArgumentError, /inside the store's folder/)
    end

    it "refuses another store's history folder" do
      RubyLLM::NativeDir.new(root, history:)
      expect { RubyLLM::NativeDir.new(File.join(@tmp, 'other'), history:) }
        .to raise_error(ArgumentError, /keeps the history of/)
    end

    it 'keeps the history across store objects and processes: a new one reads it' do
      RubyLLM::NativeDir.new(root, history:).write('a.md', 'one')
      pid = fork do
        RubyLLM::NativeDir.new(root, history:).write('a.md', 'two')
        exit!(0)
      end
      Process.wait(pid)
      store = RubyLLM::NativeDir.new(root, history:)
      expect(store.versions('a.md').map { |version| store.read_version(version) }).to eq(%w[two one])
    end

    it 'keeps the bytes of each digest once, outside the store, and removes them once no version holds them' do
      stub_const('RubyLLM::FileStores::Native::History::DirLog::Pack::COMPACT_PACK_AFTER', 0)
      store = RubyLLM::NativeDir.new(root, history: { path: history, keep: 1 })
      opened_before = RubyLLM::NativeDir.new(root, history: { path: history, keep: 1 })
      store.write('a.md', 'the same old bytes')
      store.write('b.md', 'the same old bytes')
      expect(Dir[File.join(history, 'pack*')].map { |pack| File.read(pack) }).to eq(['the same old bytes'])
      store.write('a.md', 'other')
      store.write('b.md', 'other')
      expect(Dir[File.join(history, 'pack*')].map { |pack| File.read(pack) }).to eq(['other'])
      expect(Dir.children(root).sort).to eq(%w[a.md b.md])
      expect(opened_before.versions('b.md').map { |version| opened_before.read_version(version) }).to eq(['other'])
      opened_before.write('c.md', 'after the compaction')
      expect(store.read_version(store.versions('c.md').first)).to eq('after the compaction')
    end

    it 'reads and forgets the versions of a history folder written before packs (a file per digest in blobs/)' do
      digest = RubyLLM::FileStores::Native.sha256_hex('old bytes')
      FileUtils.mkdir_p(File.join(history, 'blobs', digest[0, 2]))
      File.write(File.join(history, 'blobs', digest[0, 2], digest), 'old bytes')
      FileUtils.mkdir_p(root)
      File.write(File.join(root, 'a.md'), 'old bytes')
      File.write(File.join(history, 'store'), File.realpath(root))
      File.write(File.join(history, 'journal'),
                 "#{JSON.generate('i' => 1, 'o' => nil, 'p' => 'a.md', 'c' => 'created', 'd' => digest, 'n' => 9,
                                  't' => 'text/markdown', 'a' => Time.now.to_f, 'b' => ':app')}\n")
      store = RubyLLM::NativeDir.new(root, history: { path: history, keep: 1 })
      expect(store.read_version(store.versions('a.md').first)).to eq('old bytes')
      store.write('a.md', 'new bytes')
      expect(store.versions('a.md').map { |version| store.read_version(version) }).to eq(['new bytes'])
      expect(Dir[File.join(history, 'blobs', '*', '*')]).to eq([])
    end

    it "keeps a saved chat's question checkpoints when the journal is compacted" do
      stub_const('RubyLLM::FileStores::Native::History::DirLog::COMPACT_AFTER', 1)
      store = RubyLLM::NativeDir.new(root, history: { path: history, keep: 1 })
      store.send(:history_log).remember_question('/question/Message#7', 3)
      4.times { |n| store.write('a.md', "version #{n}") }
      again = RubyLLM::NativeDir.new(root, history: { path: history, keep: 1 })
      journal = File.read(File.join(history, 'journal'))
      expect([journal.include?('"i":1,'), again.send(:history_log).tap(&:sync).question('/question/Message#7')])
        .to eq([false, 3])
    end

    it 'records, after a process died mid-change, what the file holds' do
      store = RubyLLM::NativeDir.new(root, history:)
      store.write('a.md', 'before')
      log = store.send(:history_log)
      store.with_lock do
        log.sync
        log.begin_change(nil, ['a.md'])
        File.write(File.join(root, 'a.md'), 'written by a process killed before its version')
      end
      again = RubyLLM::NativeDir.new(root, history:)
      expect(again.versions('a.md').first.digest).to eq(again['a.md'].digest)
      expect(again.read_version(again.versions('a.md').first)).to start_with('written by')
    end

    it 'keeps a version over max_version_bytes as not kept across processes' do
      store = RubyLLM::NativeDir.new(root, history: { path: history, max_version_bytes: 10 })
      store.write('big.txt', 'x' * 100)
      again = RubyLLM::NativeDir.new(root, history: { path: history, max_version_bytes: 10 })
      expect(again.versions('big.txt').map(&:kept?)).to eq([false])
      expect(File.size?(File.join(history, 'pack'))).to be_nil
    end

    it 'cuts a journal line a killed process left half written' do
      store = RubyLLM::NativeDir.new(root, history:)
      store.write('a.md', 'one')
      File.open(File.join(history, 'journal'), 'ab') { |file| file.write('{"i":99,"o":nu') }
      again = RubyLLM::NativeDir.new(root, history:)
      again.write('a.md', 'two')
      expect(again.versions('a.md').map(&:change)).to eq(%i[changed created])
    end
  end

  describe 'with_file_store(history:) and file_store history:' do
    let(:setup) { RubyLLM::FileStore::ChatFiles::Setup }
    let(:memory_default) { -> { RubyLLM::FileStore::Memory.new } }

    it 'makes the default store, :memory or a folder with history; refuses a store object or a folder given true' do
      expect(setup.build(setup::DEFAULT, default: memory_default, history: { keep: 20 }).store.history?).to be(true)
      expect(setup.build(:memory, default: memory_default, history: true).store.history?).to be(true)
      folder = setup.build(File.join(@tmp, 'work'), default: memory_default, history: File.join(@tmp, 'history'))
      expect(folder.store.history?).to be(true)
      expect { setup.build(File.join(@tmp, 'work'), default: memory_default, history: true) }
        .to raise_error(ArgumentError, /folder of its own/)
      expect { setup.build(RubyLLM::FileStore::Memory.new, default: memory_default, history: true) }
        .to raise_error(ArgumentError, /make your own store with history:/)
      expect(setup.build(:memory, default: memory_default).store.history?).to be(false)
    end

    it "takes history: in an agent's file_store, checked when declared" do
      declared = RubyLLM::FileStore::Integration::AgentFileStore.declare(history: { keep: 20 })
      expect(declared.options).to eq(history: { keep: 20 })
      expect { RubyLLM::FileStore::Integration::AgentFileStore.declare(histories: true) }
        .to raise_error(ArgumentError, /history:/)
    end

    it 'takes a checkpoint before each question and rewinds to a message' do
      store = RubyLLM::FileStore::Memory.new(history: true)
      message = Object.new
      checkpoint = RubyLLM::FileStores::Native::History::Stores.before_question(store)
      RubyLLM::FileStores::Native::History::Stores.asked(store, message, checkpoint)
      store.write('a.md', 'after the question')
      store.rewind(to: message)
      expect(store.list).to eq([])
      expect { store.rewind(to: Object.new) }.to raise_error(RubyLLM::FileStore::HistoryError, /no checkpoint/)
    end
  end
end
