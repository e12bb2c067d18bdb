# frozen_string_literal: true

RSpec.describe RubyLLM::FileStore::Tools::ListFiles do
  on_every_store do
    before do
      store.write('brief.md', "# Brief\n")
      store.write('reports/q3.csv', "a,b\n")
      store.write('reports/2025/q4.csv', "a,b\n")
      store.write('reports/2025/q4.tsv', "a\tb\n")
      store.write('notes/plan.md', 'x' * 2048)
    end

    it 'lists every file with its type and size, one per line, sorted' do
      expect(call_tool('list_files')).to eq(<<~TEXT)
        brief.md (text/markdown, 8 bytes)
        notes/plan.md (text/markdown, 2 KB)
        reports/2025/q4.csv (text/csv, 4 bytes)
        reports/2025/q4.tsv (text/tab-separated-values, 4 bytes)
        reports/q3.csv (text/csv, 4 bytes)
      TEXT
    end

    it 'narrows to a folder with path' do
      expect(call_tool('list_files', path: 'reports/2025').lines.size).to eq(2)
    end

    it 'matches file names in any folder with a glob without a slash' do
      expect(call_tool('list_files', glob: '*.csv')).to eq(<<~TEXT)
        reports/2025/q4.csv (text/csv, 4 bytes)
        reports/q3.csv (text/csv, 4 bytes)
      TEXT
    end

    it 'matches paths with a glob with a slash, inside path when given' do
      expect(call_tool('list_files', glob: 'reports/**/*.{csv,tsv}').lines.size).to eq(3)
      expect(call_tool('list_files', path: 'reports',
                                     glob: '2025/*.csv')).to eq("reports/2025/q4.csv (text/csv, 4 bytes)\n")
    end

    it 'says so when nothing matches' do
      expect(call_tool('list_files', glob: '*.pdf')).to eq('No files in the store match *.pdf.')
      expect(call_tool('list_files', path: 'nowhere')).to eq('There are no files in nowhere.')
    end

    it 'refuses a path that leaves the store' do
      expect(call_tool('list_files', path: '../')).to match(error: /contains \.\./)
    end
  end

  it 'stops before the inline limit and says how to narrow' do
    store = RubyLLM::FileStore::Memory.new
    300.times { |i| store.write("data/file-#{i.to_s.rjust(4, '0')}.txt", 'x') }
    tool = RubyLLM::FileStore::Tools.for(store, inline_limit: 2_000).find { |t| t.name == 'list_files' }
    result = tool.call({})
    expect(result.size).to be <= 2_000
    expect(result).to match(/\[\d+ more files not shown: narrow with path or glob\.\]\n\z/)
  end
end
