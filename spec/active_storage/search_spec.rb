# frozen_string_literal: true

require_relative 'support/active_storage_helper'

RSpec.describe RubyLLM::FileStore::ActiveStorage, 'search' do
  let(:chat) { Chat.create!(title: 'Search') }
  let(:store) { store_for(chat) }

  # Active Storage's downloads during the block.
  def downloads(&)
    events = []
    callback = ->(name, *) { events << name }
    ActiveSupport::Notifications.subscribed(callback, /\Aservice_(download|streaming_download|download_chunk)/, &)
    events
  end

  it "searches the rows' text through the native engine and downloads no blob" do
    store.write('notes/plan.md', "# Plan\nTermination on notice\n")
    store.write('src/app.rb', "def terminate!\nend\n")
    deck = store.write('deck.pptx', "PK\x03\x04 binary deck".b)
    store.cache_text(deck, "Slide 1\nTermination fee\n")
    store.write('scan.pdf', '%PDF-1.7 no text yet')

    output = nil
    events = downloads do
      output = RubyLLM::FileStore::Search.run(store, 'terminat', case_sensitive: false)
    end
    expect(output).to include('notes/plan.md', 'src/app.rb', 'deck.pptx')
    expect(output).to include('Termination on notice', 'def terminate!', 'Termination fee')
    expect(output).not_to include('scan.pdf:')
    expect(events).to eq([])
  end

  it 'reads a text file kept in its row without a download, and downloads what is not text' do
    store.write('notes.md', 'text in the row')
    store.write('bin.dat', "\x00\x01".b)
    expect(downloads { expect(store.read('notes.md')).to eq('text in the row') }).to eq([])
    expect(downloads { expect(store.read('bin.dat')).to eq("\x00\x01".b) }).not_to eq([])
  end

  it 'downloads a text file whose row has no text (invalid UTF-8), and searches it all the same' do
    store.write('latin1.txt', "caf\xE9 terminated".b)
    expect(chat.ruby_llm_chat_files.pick(:text)).to be_nil
    events = downloads do
      expect(RubyLLM::FileStore::Search.run(store, 'terminated')).to include('latin1.txt')
    end
    expect(events).not_to eq([])
  end

  it 'hands over the texts of many files in one query with texts_for_search, without downloads' do
    store.write('a.md', "alpha\n")
    deck = store.write('deck.pptx', "PK\x03\x04 deck".b)
    store.cache_text(deck, 'Slide')
    store.write('scan.pdf', '%PDF-1.7')
    files = store.list
    store.delete('a.md')
    queries = 0
    count = ->(*, payload) { queries += 1 unless payload[:name] == 'SCHEMA' }
    texts = nil
    events = downloads do
      ActiveSupport::Notifications.subscribed(count, 'sql.active_record') { texts = store.texts_for_search(files) }
    end
    expect(texts).to eq([['deck.pptx', 'Slide'.b], ['scan.pdf', nil]])
    expect([queries, events]).to eq([1, []])
  end

  it 'answers search_files through the tools' do
    store.write('a.md', "needle here\n")
    result = tools_for(store).fetch('search_files').call('pattern' => 'needle')
    expect(result.to_s).to include('a.md', 'needle here')
  end
end
