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

  context 'with a text file over 1 MB without its text in its row' do
    # Temporary files the store made for a search and left behind.
    def left_temporary_files = Dir.glob(File.join(Dir.tmpdir, 'ruby_llm_search*'))

    def utf16(text) = "\xFF\xFE".b + text.encode('UTF-16LE').b

    it 'streams it into the engine as it downloads, with no temporary file' do
      store.write('wide.txt', utf16("#{"lorem ipsum\n" * 100_000}the needle at the end\n"))
      expect(chat.ruby_llm_chat_files.pick(:text)).to be_nil
      before = left_temporary_files
      events = downloads do
        expect(RubyLLM::FileStore::Search.run(store, 'needle', context: 1))
          .to eq("wide.txt-100000-lorem ipsum\nwide.txt:100001:the needle at the end\n")
      end
      expect(events).to include('service_streaming_download.active_storage')
      expect(left_temporary_files).to eq(before)
    end

    it 'skips it as binary when it holds a NUL, as a file on disk is' do
      store.write('dump.txt', "\0#{"secret line\n" * 100_000}".b, content_type: 'text/plain')
      expect(RubyLLM::FileStore::Search.run(store, 'secret'))
        .to eq("No matches.\nSkipped 1 binary file: dump.txt. It has no text to search.\n")
    end

    it 'stops the download at the deadline and says so' do
      store.write('wide.txt', utf16("needle\n" * 300_000))
      result = RubyLLM::FileStore::Search.run(store, 'needle', timeout: 0.0)
      expect(result).to include('ran out of time')
      expect(result).not_to include('wide.txt:')
    end

    it "searches each store's own version where an owner's file shadows the shared one" do
      owner = User.create!(name: 'ann')
      store.write('wide.txt', utf16("#{"x\n" * 600_000}shared needle\n"))
      store.for_owner(owner).write('wide.txt', utf16("#{"x\n" * 600_000}ann's needle\n"))
      expect(RubyLLM::FileStore::Search.run(store.for_owner(owner), 'needle')).to eq("wide.txt:600001:ann's needle\n")
      expect(RubyLLM::FileStore::Search.run(store, 'needle')).to eq("wide.txt:600001:shared needle\n")
    end
  end

  it 'answers search_files through the tools' do
    store.write('a.md', "needle here\n")
    result = tools_for(store).fetch('search_files').call('pattern' => 'needle')
    expect(result.to_s).to include('a.md', 'needle here')
  end
end
