# frozen_string_literal: true

require_relative 'support/active_storage_helper'

RSpec.describe RubyLLM::FileStore::ActiveStorage do
  let(:chat) { Chat.create!(title: 'Contracts') }
  let(:store) { store_for(chat) }

  def full_store(max_bytes) = store_for(chat, max_bytes:)

  it_behaves_like 'a file store'
  it_behaves_like 'a store with folders'
  it_behaves_like 'a store with one text per file'

  it 'keeps one row per file in ruby_llm_chat_files, keyed on its own path column' do
    store.write('reports/2025/q3 draft.md', "# Q3\n")
    rows = chat.ruby_llm_chat_files.with_attached_file.to_a
    expect(rows.size).to eq(1)
    row = rows.first
    expect(row).to have_attributes(path: 'reports/2025/q3 draft.md', content_type: 'text/markdown', byte_size: 5,
                                   digest: Digest::SHA256.hexdigest("# Q3\n"), owner: nil)
    expect(row.file.filename.to_s).to eq('q3 draft.md')
    expect(row.file.download).to eq("# Q3\n")
  end

  it 'keeps its files through a reload: a new store on the chat found again sees them' do
    store.write('notes/plan.md', "# Plan\n")
    store.write('data.bin', "\x00\xFF".b)
    again = store_for(Chat.find(chat.id))
    expect(again.list.map(&:path)).to eq(%w[data.bin notes/plan.md])
    expect(again.read('notes/plan.md')).to eq("# Plan\n")
    expect(again.read('data.bin')).to eq("\x00\xFF".b)
    expect(again.find('notes/plan.md')).to eq(store.find('notes/plan.md'))
  end

  it 'remembers which attachment each file was kept for in the row, for a new store on the chat' do
    keeper = RubyLLM::FileStore::ChatFiles::Keeper
    kept, = keeper.new(store).keep_attachment('brief.txt', "A draft brief.\n")
    store.write('brief.txt', "A final brief.\n")
    again, written = keeper.new(store_for(Chat.find(chat.id))).keep_attachment('brief.txt', "A draft brief.\n")
    expect([kept.path, again.path, again.byte_size, written]).to eq(['brief.txt', 'brief.txt', 15, false])
    expect(chat.ruby_llm_chat_files.pluck(:path, :attachment_key))
      .to eq([['brief.txt', keeper.attachment_key('brief.txt', Digest::SHA256.hexdigest("A draft brief.\n"))]])
  end

  it 'keeps converted text and what the model read in the row, for a new store on the chat' do
    deck = store.write('deck.pptx', "PK\x03\x04 fake deck".b)
    store.cache_text(deck, "Slide 1\n")
    store.record_read('deck.pptx', deck.digest)
    again = store_for(Chat.find(chat.id))
    expect(again.cached_text(again.find('deck.pptx'))).to eq("Slide 1\n")
    expect(again.text('deck.pptx')).to eq("Slide 1\n")
    expect(again.read_digest('deck.pptx')).to eq(deck.digest)
    expect(chat.ruby_llm_chat_files.to_a)
      .to contain_exactly(an_object_having_attributes(text: "Slide 1\n", read_digest: deck.digest))
  end

  it 'remembers what the model read across processes, in the read_digest column' do
    file = store.write('notes/plan.md', "# Plan\n")
    run_worker('record_read', chat.id, 'notes/plan.md', file.digest)
    expect(store.read_digest('notes/plan.md')).to eq(file.digest)
    store.record_read('notes/plan.md', 'f00d')
    expect(run_worker('read_digest', chat.id, 'notes/plan.md')).to eq('"f00d"')
  end

  it 'keeps the read digest when the file is overwritten, so the model reads it again' do
    first = store.write('a.md', 'one')
    store.record_read('a.md', first.digest)
    store.write('a.md', 'two')
    expect(store.read_digest('a.md')).to eq(first.digest)
    result = tools_for(store).fetch('edit_file').call('path' => 'a.md', 'old_text' => 'two', 'new_text' => '2')
    expect(result).to eq(error: 'a.md changed since you read it. Read it again.')
  end

  it 'refuses a chat that is not saved, with ArgumentError' do
    expect { store_for(Chat.new) }.to raise_error(ArgumentError, /chat must be a saved Active Record record/)
    expect { store_for(chat, owner: User.new) }.to raise_error(ArgumentError, /owner must be a saved/)
  end

  it 'refuses to change the files of a chat that was deleted' do
    Chat.where(id: chat.id).delete_all
    expect { store.write('a.md', 'a') }.to raise_error(ActiveRecord::RecordNotFound, /no longer exists/)
    expect(blob_count).to eq(0)
    expect(stored_files).to eq([])
  end
end
