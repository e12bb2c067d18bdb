# frozen_string_literal: true

require_relative 'support/active_storage_helper'

RSpec.describe RubyLLM::FileStore::ActiveStorage, 'with history' do
  let(:chat) { Chat.create!(title: 'History') }
  let(:store) { store_for(chat, history: true) }

  it_behaves_like 'a store with history' do
    let(:without_history) { store_for(Chat.create!(title: 'Plain')) }
    define_method(:keep_two) { store_for(Chat.create!(title: 'Two'), history: { keep: 2 }) }
    define_method(:keep_for_a_minute) { store_for(Chat.create!(title: 'Short'), history: { keep_for: 60 }) }
  end

  it 'keeps versions in ruby_llm_chat_file_versions, each holding the blob its file had, with no upload of its own' do
    store.write('a.md', 'one')
    blob = chat.ruby_llm_chat_files.first.file.blob
    uploads = blob_count
    store.write('a.md', 'two')
    expect(blob_count).to eq(uploads + 1) # the new file's blob only: the version holds the old one
    rows = chat.ruby_llm_chat_file_versions.to_a
    expect(rows.map(&:kind)).to eq(%w[created changed])
    expect(rows.first.blob_id).to eq(blob.id)
    expect(ActiveStorage::Blob.exists?(blob.id)).to be(true)
    expect(store.read_version(store.versions('a.md').last)).to eq('one')
  end

  it 'never purges a blob a version holds: not on replace, delete or purge_orphans; forgetting lets it go' do
    small = store_for(chat, history: { keep: 2 })
    small.write('a.md', 'one')
    first = chat.ruby_llm_chat_files.first.file.blob
    small.write('b.md', 'b')
    small.delete('b.md')
    expect(described_class.purge_orphans(older_than: 0)).to eq(0)
    expect(small.read_version(small.versions('b.md').last)).to eq('b')
    small.write('a.md', 'two')
    expect(ActiveStorage::Blob.exists?(first.id)).to be(true)
    small.write('a.md', 'three') # keep: 2 forgets 'one'
    expect(ActiveStorage::Blob.exists?(first.id)).to be(false)
    expect(small.versions('a.md').map { |version| small.read_version(version) }).to eq(%w[three two])
  end

  it 'keeps the history across processes: a new store on the chat reads it and rewinds to a checkpoint' do
    store.write('a.md', 'one')
    checkpoint = store.checkpoint
    store.write('a.md', 'two')
    again = store_for(Chat.find(chat.id), history: true)
    expect(again.versions('a.md').map { |version| again.read_version(version) }).to eq(%w[two one])
    again.rewind(RubyLLM::FileStore::Checkpoint.new(id: checkpoint.id))
    expect(again.read('a.md')).to eq('one')
  end

  it 'keeps keep: and keep_for: with the chat: a store made with history: true on it again applies them' do
    given = store_for(chat, history: { keep: 2, keep_for: 60 })
    given.write('a.md', 'v0')
    again = store_for(Chat.find(chat.id), history: true) # a reload, another worker: default_file_store
    3.times { |n| again.write('a.md', "v#{n + 1}") }
    expect(again.versions('a.md').map { |version| again.read_version(version) }).to eq(%w[v3 v2])
    later = Time.now + 120
    allow(Time).to receive(:now).and_return(later)
    store_for(Chat.find(chat.id), history: true).write('a.md', 'v4')
    expect(again.versions('a.md').size).to eq(1)
    store_for(Chat.find(chat.id), history: { keep: 3 }).write('b.md', 'b') # given again: the chat's bounds now
    third = store_for(Chat.find(chat.id), history: true)
    3.times { |n| third.write('a.md', "w#{n}") }
    expect(third.versions('a.md').size).to eq(3)
    expect(chat.ruby_llm_chat_file_versions.where(kind: 'limits').count).to eq(1)
    expect(third.changes_since(RubyLLM::FileStore::Checkpoint.new(id: 0)).map(&:path)).to eq(%w[a.md b.md])
  end

  it_behaves_like 'a store with history for owners' do
    let(:first_owner) { User.create!(name: 'Ann') }
    let(:second_owner) { User.create!(name: 'Bo') }
  end

  it 'records a kept attachment (keep_blob) as a version by :attachment, sharing its blob' do
    blob = ActiveStorage::Blob.create_and_upload!(io: StringIO.new("# Brief\n"), filename: 'brief.md',
                                                  content_type: 'text/markdown')
    RubyLLM::FileStores::Native::History.acting(:attachment) { store.keep_blob('brief.md', blob) }
    version = store.versions('brief.md').first
    expect(version).to have_attributes(change: :created, by: :attachment)
    expect(chat.ruby_llm_chat_file_versions.last.blob_id).to eq(blob.id)
  end

  it 'goes with the chat' do
    store.write('a.md', 'one')
    chat.destroy!
    expect(RubyLLM::ActiveRecord::ChatFileVersion.count).to eq(0)
  end
end
