# frozen_string_literal: true

require_relative 'support/active_storage_helper'

RSpec.describe RubyLLM::FileStore::ActiveStorage, 'move and read_only:' do
  let(:chat) { Chat.create!(title: 'Moves') }
  let(:store) { store_for(chat) }

  it_behaves_like 'a store that moves files'

  context 'with read_only: true' do
    it_behaves_like 'a read-only store' do
      let(:writer) { store_for(chat) }
      let(:store) { store_for(chat, read_only: true) }
    end

    it 'refuses keep_blob, keeps read_only in for_owner, and refuses a read_only: that is not true or false' do
      read_only = store_for(chat, read_only: true)
      blob = ActiveStorage::Blob.create_and_upload!(io: StringIO.new('b'), filename: 'b.txt')
      expect { read_only.keep_blob('b.txt', blob) }.to raise_error(RubyLLM::FileStore::ReadOnlyError)
      expect(read_only.for_owner(User.create!(name: 'Ada')).read_only?).to be(true)
      expect { store_for(chat, read_only: nil) }.to raise_error(ArgumentError, /read_only must be true or false/)
    end

    it 'keeps what its model read in the store object, never in the rows other chats read' do
      file = store.write('handbook/policy.md', 'p')
      read_only = store_for(chat, read_only: true)
      read_only.record_read('handbook/policy.md', file.digest)
      expect(read_only.read_digest('handbook/policy.md')).to eq(file.digest)
      expect(chat.ruby_llm_chat_files.pluck(:read_digest)).to eq([nil])
      expect(store_for(chat, read_only: true).read_digest('handbook/policy.md')).to be_nil
    end
  end

  # The service's own notifications: a move that uploaded or downloaded
  # would be seen here.
  def service_calls
    calls = []
    names = /\Aservice_(upload|download|download_chunk|delete)\.active_storage\z/
    subscriber = ActiveSupport::Notifications.subscribe(names) { |name, *| calls << name }
    yield
    calls
  ensure
    ActiveSupport::Notifications.unsubscribe(subscriber)
  end

  it 'changes the rows in place: the same ids and blobs, the path digests, no upload, download or delete' do
    store.write('reports/q3.md', 'q3')
    store.write('reports/q4.md', 'q4')
    before = chat.ruby_llm_chat_files.order(:path).map { |row| [row.id, row.file.blob.id] }
    calls = service_calls { store.move('reports', 'archive') }
    expect(calls).to eq([])
    rows = chat.ruby_llm_chat_files.order(:path).to_a
    expect(rows.map(&:path)).to eq(%w[archive/q3.md archive/q4.md])
    expect(rows.map { |row| [row.id, row.file.blob.id] }).to eq(before)
    if RubyLLM::ActiveRecord::ChatFile.path_digests?
      expect(rows.map(&:path_digest)).to eq(rows.map { |row| RubyLLM::ActiveRecord::ChatFile.path_digest(row.path) })
    end
    expect(store.read('archive/q4.md')).to eq('q4')
  end

  it 'moves the kept text and the read digest with the row, so another store object knows them too' do
    file = store.write('notes/plan.md', 'plan')
    store.record_read('notes/plan.md', file.digest)
    store.move('notes/plan.md', 'plans/plan.md')
    again = store_for(chat.class.find(chat.id))
    expect(again.read_digest('plans/plan.md')).to eq(file.digest)
    expect(again.read_digest('notes/plan.md')).to be_nil
  end

  it "moves an owner's own files, and does not see, move or overwrite another owner's" do
    ada = User.create!(name: 'Ada')
    bob = User.create!(name: 'Bob')
    adas = store_for(chat, owner: ada)
    bobs = store_for(chat, owner: bob)
    store.write('shared.md', 's')
    adas.write('ada/a.md', 'a')
    bobs.write('bob/b.md', 'b')
    expect { bobs.move('ada/a.md', 'bob/a.md') }.to raise_error(RubyLLM::FileNotFoundError)
    expect { bobs.move('shared.md', 'bob/shared.md') }.to raise_error(ArgumentError, /shared with everyone/)
    expect(adas.move('ada', 'bob').map(&:path)).to eq(['bob/a.md']) # Bob's bob/ is not Ada's to see
    expect(bobs.list.map(&:path)).to eq(%w[bob/b.md shared.md])
    expect(adas.list.map(&:path)).to eq(%w[bob/a.md shared.md])
  end
end
