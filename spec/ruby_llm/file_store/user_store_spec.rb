# frozen_string_literal: true

RSpec.describe 'A store written as "Writing Your Own Store" shows' do
  subject(:store) { BucketStore.new }

  it_behaves_like 'a file store'
  it_behaves_like 'a store that moves files'

  it 'is refused every change when it says read_only?, without a check of its own' do
    bucket = {}
    BucketStore.new(bucket).write('notes/a.md', 'a')
    read_only = Class.new(BucketStore) { def read_only? = true }.new(bucket)
    message = %r{notes/a.md is read-only}
    expect { read_only.write('notes/a.md', 'b') }.to raise_error(RubyLLM::FileStore::ReadOnlyError, message)
    expect { read_only.delete('notes/a.md') }.to raise_error(RubyLLM::FileStore::ReadOnlyError, message)
    expect { read_only.move('notes/a.md', 'b.md') }.to raise_error(RubyLLM::FileStore::ReadOnlyError, message)
    expect { read_only.delete_folder('notes') }.to raise_error(RubyLLM::FileStore::ReadOnlyError, /notes is read-only/)
    saved, unsaved, error = read_only.write_many(['notes/a.md']) { 'c' }
    expect([saved, unsaved, error]).to match([[], ['notes/a.md'], message])
    expect(bucket.transform_values { |object| object[:body] }).to eq('chat-1/notes/a.md' => 'a')
  end

  it 'moves by copying, then deleting, under with_lock; a copy that fails leaves the source as it was' do
    failing = Class.new(BucketStore) do
      def write(path, content, content_type: nil)
        raise RubyLLM::FileStoreFullError, 'full' if path.end_with?('b.md') && path.start_with?('new/')

        super
      end
    end.new
    failing.write('old/a.md', 'a')
    failing.write('old/b.md', 'b')
    failing.write('old/c.md', 'c')
    expect { failing.move('old', 'new') }.to raise_error(RubyLLM::FileStoreFullError)
    expect(failing.list.map(&:path)).to eq(%w[old/a.md old/b.md old/c.md])
    expect(store.read_only?).to be(false)
  end

  it 'gets find, exist?, delete_folder, with_lock and the memories from RubyLLM::FileStore' do
    %i[find exist? delete_folder with_lock cached_text cache_text read_digest record_read text
       local_root].each do |name|
      method = BucketStore.instance_method(name)
      # The refusal of a read-only store and the history's recorder stand in front of every store's changing methods.
      method = method.super_method while [RubyLLM::FileStores::Native::ReadOnlyGuard,
                                          RubyLLM::FileStores::Native::HistoryRecorder].include?(method.owner)
      expect(method.owner).to eq(RubyLLM::FileStores::Native::StoreMethods)
    end
  end

  it 'works when its initialize does not call super' do
    careless = Class.new(BucketStore) do
      def initialize
        @bucket = {}
        @prefix = 'x/'
      end
    end.new
    careless.record_read('a.txt', 'd1')
    expect(careless.read_digest('a.txt')).to eq('d1')
    expect(careless.with_lock { :locked }).to eq(:locked)
  end

  it 'says which method a store forgot to implement' do
    empty = Class.new(RubyLLM::FileStore).new
    expect { empty.list }.to raise_error(NotImplementedError, /must implement list/)
    expect { empty['a'] }.to raise_error(NotImplementedError, /must implement \[\]/)
    expect { empty.read('a') }.to raise_error(NotImplementedError, /must implement read/)
    expect { empty.write('a', 'b') }.to raise_error(NotImplementedError, /must implement write/)
    expect { empty.delete('a') }.to raise_error(NotImplementedError, /must implement delete/)
  end
end
