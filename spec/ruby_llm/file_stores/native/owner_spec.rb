# frozen_string_literal: true

RSpec.describe 'Owners of files' do
  let(:user) { Struct.new(:id).new(7) }
  let(:other) { Struct.new(:id).new(8) }
  let(:store) { RubyLLM::FileStore::Memory.new }

  describe RubyLLM::FileStores::Native::Owner do
    it 'keys an owner by class and id' do
      record_class = Class.new(Struct.new(:id)) { def self.name = 'User' }
      expect(described_class.key(record_class.new(42))).to eq('User/42')
    end

    it 'keys a subclass of a record by its base class' do
      base = Class.new(Struct.new(:id)) { def self.name = 'Account' }
      admin = Class.new(base) { define_singleton_method(:base_class) { base } }
      expect(described_class.key(admin.new(3))).to eq('Account/3')
    end

    it 'refuses an object without an id' do
      expect { described_class.key('dana') }.to raise_error(ArgumentError, /a record or an object with an id/)
      expect { described_class.key(Struct.new(:id).new(nil)) }.to raise_error(ArgumentError)
    end
  end

  describe 'a Memory store for an owner' do
    let(:mine) { store.for_owner(user) }
    let(:theirs) { store.for_owner(other) }

    it 'writes files for its owner, which the store and other owners do not see' do
      mine.write('notes.md', 'mine')
      expect([mine.exist?('notes.md'), theirs.exist?('notes.md'), store.exist?('notes.md')]).to eq([true, false, false])
      expect(mine.owner).to eq(user)
    end

    it 'sees the files without an owner, preferring its own at the same path' do
      store.write('shared.md', 'for everyone')
      store.write('plan.md', 'shared plan')
      mine.write('plan.md', 'my plan')
      expect(mine.list.map(&:path)).to eq(%w[plan.md shared.md])
      expect([mine.read('plan.md'), theirs.read('plan.md'), store.read('plan.md')])
        .to eq(['my plan', 'shared plan', 'shared plan'])
    end

    it 'deletes its own file, and refuses the one without an owner, which stays for everyone' do
      store.write('plan.md', 'shared')
      mine.write('plan.md', 'mine')
      mine.delete('plan.md')
      expect(mine.read('plan.md')).to eq('shared')
      expect { mine.delete('plan.md') }.to raise_error(ArgumentError, /plan.md is shared with everyone/)
      expect([mine.read('plan.md'), store.read('plan.md')]).to eq(%w[shared shared])
    end

    it 'keeps folders and files apart within what it sees only' do
      theirs.write('reports', 'a file named reports')
      expect { mine.write('reports/q3.md', 'x') }.not_to raise_error
      expect { store.write('reports/q3.md/deeper', 'x') }.not_to raise_error
    end

    it 'shares the size limit of the whole store' do
      capped = RubyLLM::FileStore::Memory.new(max_bytes: 10)
      capped.write('a', '123456')
      expect { capped.for_owner(user).write('b', '123456') }.to raise_error(RubyLLM::FileStoreFullError, /full/)
      expect(capped.for_owner(user).total_size).to eq(6)
    end

    it 'remembers its own reads' do
      store.write('a.md', 'x')
      mine.record_read('a.md', 'digest')
      expect([mine.read_digest('a.md'), store.read_digest('a.md')]).to eq(['digest', nil])
    end
  end

  it 'is refused by a store that cannot keep files for an owner' do
    Dir.mktmpdir do |dir|
      expect { RubyLLM::NativeDir.new(dir).for_owner(user) }
        .to raise_error(ArgumentError, /NativeDir cannot keep files for an owner/)
    end
  end
end
