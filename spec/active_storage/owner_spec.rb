# frozen_string_literal: true

require_relative 'support/active_storage_helper'

RSpec.describe RubyLLM::FileStore::ActiveStorage, 'owner:' do
  let(:chat) { Chat.create!(title: 'Shared') }
  let(:ada) { User.create!(name: 'Ada') }
  let(:bob) { User.create!(name: 'Bob') }
  let(:shared) { store_for(chat) }
  let(:adas) { store_for(chat, owner: ada) }
  let(:bobs) { store_for(chat, owner: bob) }

  before do
    shared.write('brief.md', 'for everyone')
    adas.write('fetched/ada.md', 'for Ada')
    adas.write('brief.md', "Ada's brief")
  end

  it 'writes files for its owner, and sees theirs and the files without an owner, theirs first' do
    expect(adas.list.map(&:path)).to eq(%w[brief.md fetched/ada.md])
    expect(adas.read('brief.md')).to eq("Ada's brief")
    expect(chat.ruby_llm_chat_files.where(owner: ada).pluck(:path)).to contain_exactly('brief.md', 'fetched/ada.md')
  end

  it "does not see another owner's files" do
    expect(bobs.list.map(&:path)).to eq(['brief.md'])
    expect(bobs.read('brief.md')).to eq('for everyone')
    expect(bobs['fetched/ada.md']).to be_nil
    expect { bobs.read('fetched/ada.md') }.to raise_error(RubyLLM::FileNotFoundError)
    expect(bobs.list('fetched')).to eq([])
  end

  it 'gives a store for an owner on the same chat with for_owner' do
    view = shared.for_owner(ada)
    expect(view).to have_attributes(chat:, owner: ada)
    expect(view.read('brief.md')).to eq("Ada's brief")
  end

  it 'sees only the files without an owner when it has none' do
    expect(shared.list.map(&:path)).to eq(['brief.md'])
    expect(shared.read('brief.md')).to eq('for everyone')
  end

  it 'keeps what the model read per row: the owner reading their file leaves the shared one unread' do
    adas.record_read('brief.md', adas.find('brief.md').digest)
    expect(adas.read_digest('brief.md')).to eq(adas.find('brief.md').digest)
    expect(shared.read_digest('brief.md')).to be_nil
  end

  it 'deletes the file it sees: the owner\'s, then the shared one shows again' do
    expect(adas.delete('brief.md').digest).to eq(Digest::SHA256.hexdigest("Ada's brief"))
    expect(adas.read('brief.md')).to eq('for everyone')
    expect(bobs.read('brief.md')).to eq('for everyone')
  end
end
