# frozen_string_literal: true

RSpec.describe RubyLLM::FileStore::Tools::SearchFiles do
  on_every_store do
    before do
      store.write('contracts/a.md', "Intro\nTermination: 30 days\nPayment\n")
      store.write('contracts/b.txt', "one\ntwo\nthree termination\nfour\nfive\nsix\nseven termination\n")
      store.write('notes.md', "nothing here\n")
      store.write('scan.pdf', "%PDF-1.7\n")
    end

    it 'finds lines as path:line:text, ignoring case' do
      expect(call_tool('search_files', pattern: 'termination',
                                       glob: '*.md')).to eq("contracts/a.md:2:Termination: 30 days\n")
    end

    it 'matches case when asked' do
      result = call_tool('search_files', pattern: 'Termination', case_sensitive: true)
      expect(result).to start_with("contracts/a.md:2:Termination: 30 days\n")
      expect(result).not_to include('three termination')
    end

    it 'shows context lines as path-line-text with -- between groups' do
      result = call_tool('search_files', pattern: 'termination', path: 'contracts', glob: '*.txt', context: 1)
      expect(result).to eq(<<~TEXT)
        contracts/b.txt-2-two
        contracts/b.txt:3:three termination
        contracts/b.txt-4-four
        --
        contracts/b.txt-6-six
        contracts/b.txt:7:seven termination
      TEXT
    end

    it 'names matching files with files_only' do
      expect(call_tool('search_files', pattern: 'TERMINATION', files_only: true))
        .to start_with("contracts/a.md\ncontracts/b.txt\n")
    end

    it 'names the files it skipped for having no text yet' do
      expect(call_tool('search_files', pattern: 'zzz'))
        .to eq("No matches.\nSkipped 1 file with no extracted text: scan.pdf. Read them with read_file first.\n")
    end

    it 'searches and reads plain text named as a binary format as text' do
      # As arch/m68k/ifpsp060/fplsp.doc in the Linux tree; a real .docx stays skipped.
      store.write('fplsp.doc', "MOTOROLA termination package\n")
      store.write('real.docx', "PK\x03\x04termination".b)
      expect(store.find('fplsp.doc').content_type).to eq('text/plain')
      expect(call_tool('search_files', pattern: 'termination', glob: '*.doc*'))
        .to eq("fplsp.doc:1:MOTOROLA termination package\n" \
               "Skipped 1 file with no extracted text: real.docx. Read them with read_file first.\n")
      expect(call_tool('read_file', path: 'fplsp.doc')).to eq("MOTOROLA termination package\n")
    end

    it 'searches the text kept for other formats' do
      store.cache_text(store.find('scan.pdf'), "Scanned termination clause\n")
      expect(call_tool('search_files', pattern: 'clause')).to eq("scan.pdf:1:Scanned termination clause\n")
    end

    it 'explains a bad pattern and a missing folder' do
      expect(call_tool('search_files',
                       pattern: '(unclosed')).to match(error: /not a regular expression this search can use.*Escape/)
      expect(call_tool('search_files', pattern: 'x',
                                       path: 'nowhere')).to eq(error: 'There is no folder nowhere in the store.')
      expect(call_tool('search_files', pattern: 'x', path: '../up')).to match(error: /contains \.\./)
    end
  end

  it 'stops after 100 matching lines and says how to narrow' do
    store = RubyLLM::FileStore::Memory.new
    store.write('big.txt', "match\n" * 500)
    tool = RubyLLM::FileStore::Tools.for(store).find { |t| t.name == 'search_files' }
    result = tool.call(pattern: 'match')
    expect(result.lines.count { |l| l.start_with?('big.txt:') }).to eq(100)
    expect(result.lines.last).to include('Stopped after 100 matching lines; there are more').and include('path or glob')
  end

  it 'stays within 20,000 characters and cuts long lines around the match' do
    store = RubyLLM::FileStore::Memory.new
    50.times { |i| store.write("f#{i}.txt", "#{'x' * 2000} needle #{'y' * 2000}\n") }
    result = RubyLLM::FileStore::Tools.for(store).find { |t| t.name == 'search_files' }.call(pattern: 'needle')
    expect(result.size).to be <= 20_000
    expect(result.lines.first).to include('needle').and start_with('f0.txt:1:[...]')
    expect(result.lines.first.size).to be < 600
  end
end
