# frozen_string_literal: true

RSpec.describe RubyLLM::FileStore::ChatFiles::LongResults do
  let(:store) { RubyLLM::FileStore::Memory.new }
  let(:results) { described_class.new(store, limit: 10_000) }
  let(:long_text) { (1..6000).map { |i| "line #{i}" }.join("\n") }

  it 'sends a result up to the limit whole, and saves nothing' do
    text = 'x' * 10_000
    expect(results.shape('search', text)).to eq([text, nil])
    expect(store.list).to be_empty
  end

  it 'saves a longer text result under results/ and sends its first 2,000 characters and the path' do
    sent, file = results.shape('search_drive', long_text)
    expect(file.path).to match(%r{\Aresults/search_drive-\h{8}\.txt\z})
    expect(store.read(file.path)).to eq(long_text)
    expect(sent).to eq("#{long_text[0, 2000]}\n\n[This result has #{long_text.size} characters, so only the start " \
                       "is shown. All of it is in #{file.path}: read more with read_file, or search it with " \
                       'search_files.]')
  end

  it 'saves JSON pretty printed, one value per line, from a Hash or a JSON string' do
    items = { 'items' => (1..800).map { |i| { 'id' => i, 'title' => "Quarterly plan #{i}" } } }
    _, from_hash = results.shape('search_drive', items)
    _, from_string = described_class.new(RubyLLM::FileStore::Memory.new, limit: 10_000)
                                    .shape('search_drive', JSON.generate(items))
    expect(from_hash.path).to end_with('.json')
    expect(from_hash.path).to eq(from_string.path)
    saved = store.read(from_hash.path)
    expect(saved).to eq(JSON.pretty_generate(items))
    expect(saved.lines.size).to be > 3000
  end

  it 'saves JSON over PRETTY_MAX bytes as it came, and other text over it as .txt' do
    rows = (1..30_000).map { |i| { 'id' => i, 'title' => "Quarterly plan #{i}" } }
    text = JSON.generate(rows)
    expect(text.bytesize).to be > described_class::PRETTY_MAX
    from_string = results.shape('export', "  #{text}\n").last
    from_array = results.shape('export', rows).last
    plain = results.shape('export', "[#{'x' * (2 << 20)}").last
    expect([from_string.path, from_array.path, plain.path]).to all(start_with('results/export-'))
    expect([File.extname(from_string.path), File.extname(from_array.path), File.extname(plain.path)])
      .to eq(%w[.json .json .txt])
    expect([store.read(from_string.path), store.read(from_array.path)]).to eq(["  #{text}\n", text])
  end

  it 'names the file after at most 64 characters of a long tool name' do
    path = results.shape("fetch_#{'x' * 12_000}", long_text).last.path
    expect(path).to match(%r{\Aresults/fetch_x{58}-\h{8}\.txt\z})
  end

  it 'keeps the same result once' do
    results.shape('t', long_text)
    results.shape('t', long_text)
    expect(store.list.size).to eq(1)
  end

  it "uses a tool class's own limit: false sends whole, a number replaces the chat's" do
    expect(results.shape('t', long_text, tool_limit: false).last).to be_nil
    expect(results.shape('t', long_text, tool_limit: 100_000).last).to be_nil
    sent, file = results.shape('t', 'y' * 1500, tool_limit: 1_000)
    expect(file).not_to be_nil
    expect(sent).to start_with("#{'y' * 1000}\n\n[This result has 1500 characters")
  end

  it 'sends every result whole with no limit' do
    expect(described_class.new(store, limit: false).shape('t', long_text)).to eq([long_text, nil])
  end

  it 'sends a result whole when the store is full' do
    full = described_class.new(RubyLLM::FileStore::Memory.new(max_bytes: 100), limit: 10_000)
    expect(full.shape('t', long_text)).to eq([long_text, nil])
  end

  it 'reports each written file' do
    written = []
    results.shape('t', long_text, on_write: written.method(:<<))
    results.shape('t', long_text, on_write: written.method(:<<))
    expect(written.map(&:path)).to match([%r{\Aresults/t-\h{8}\.txt\z}])
  end

  it 'names the file after the tool, made safe for a path' do
    expect(results.shape('mcp/fetch page', long_text).last.path).to match(%r{\Aresults/mcp_fetch_page-\h{8}\.txt\z})
  end

  it 'leaves files to the callers' do
    file = RubyLLM::FileStore::Tools::FileResult.new(path: 'a.png', filename: 'a.png', content_type: 'image/png',
                                                     content: 'x' * 20_000)
    expect(results.shape('t', file)).to eq([file, nil])
  end
end
