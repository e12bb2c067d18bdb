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

  it "deletes the owner's own file, then the shared one shows again" do
    expect(adas.delete('brief.md').digest).to eq(Digest::SHA256.hexdigest("Ada's brief"))
    expect(adas.read('brief.md')).to eq('for everyone')
    expect(bobs.read('brief.md')).to eq('for everyone')
  end

  # Guarantee (README: owners share files safely): deleting follows the rule
  # writing does, and reads are kept per owner's view.
  it "refuses an owner's delete_file on a shared file, which stays for every owner and the app" do
    tool = RubyLLM::FileStore::Tools.for(bobs, tools: %i[read delete]).find { |t| t.name == 'delete_file' }
    expect(tool.call('path' => 'brief.md')).to eq(error: RubyLLM::FileStore.shared_file_message('brief.md'))
    expect([shared.read('brief.md'), bobs.read('brief.md'), store_for(chat, owner: bob).read('brief.md')])
      .to all(eq('for everyone'))
  end

  it "deletes only the owner's files with delete_folder" do
    shared.write('fetched/shared.md', 'x')
    expect(adas.delete_folder('fetched').map(&:path)).to eq(['fetched/ada.md'])
    expect(shared.list.map(&:path)).to eq(%w[brief.md fetched/shared.md])
  end

  it "keeps reads per owner's view: Bob's read of the shared file does not let Ada's or the app's model edit it" do
    shared.write('notes.md', "total: 5\n")
    bob_tools = RubyLLM::FileStore::Tools.for(bobs, tools: %i[read edit]).to_h { |t| [t.name, t] }
    bob_tools['read_file'].call('path' => 'notes.md')
    edits = [adas, shared, store_for(chat, owner: ada)].map do |view|
      RubyLLM::FileStore::Tools.for(view, tools: %i[read edit]).find { |t| t.name == 'edit_file' }
                               .call('path' => 'notes.md', 'old_text' => '5', 'new_text' => '6')
    end
    expect(edits).to all(eq(error: 'You have not read notes.md. Read it with read_file first.'))
    expect(bob_tools['edit_file'].call('path' => 'notes.md', 'old_text' => '5', 'new_text' => '6'))
      .to eq('Edited notes.md (1 replacement).')
    expect([bobs.read('notes.md'), shared.read('notes.md')]).to eq(["total: 6\n", "total: 5\n"])
  end
end
