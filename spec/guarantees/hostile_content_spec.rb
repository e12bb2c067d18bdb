# frozen_string_literal: true

require_relative 'guarantee_helpers'

# Guarantee: no file content hurts the process. Each case runs in its own
# Ruby (spec/scripts/hostile_content.rb), capped at 3 GB of address space,
# and reports what the model would see and its peak resident memory
# (VmHWM): a clear result within the tool's limits, and bounded memory.
RSpec.describe 'Guarantee: hostile content gets a clear result in bounded memory', :native do
  def run_case(name)
    outcome = GuaranteeHelpers.run_script('hostile_content.rb', name)
    expect(outcome[:status]).to be_success, "#{name} failed:\n#{outcome[:output][-2000..] || outcome[:output]}"
    outcome
  end

  def texts(outcome) = outcome[:results]

  it 'pages a 2 GB sparse file with read_file without loading it (peak under 400 MB)' do
    outcome = run_case('sparse_2g_read')
    expect(texts(outcome).first).to start_with("line 1\n").and include('Read on with offset: 21')
    expect(outcome[:peak_mb]).to be < 400
  end

  it 'searches a 2 GB sparse file in buffers, naming it as binary (peak under 400 MB)' do
    outcome = run_case('sparse_2g_search')
    expect(texts(outcome).first).to include('Skipped 1 binary file: big.log')
    expect(outcome[:peak_mb]).to be < 400
  end

  it 'shows the start of a single 100 MB line with read_file, and says so (peak under 400 MB)' do
    outcome = run_case('one_line_read')
    expect(texts(outcome).first).to start_with('x' * 1000)
      .and end_with('[Line 1 of line.txt is longer than this result can hold; only its start is shown. ' \
                    'Use search_files to find text in it.]')
    expect(texts(outcome).first).to match(/\[(9\d{3}|10000) chars\]/) # within the inline limit
    expect(outcome[:peak_mb]).to be < 400
  end

  it 'reports a single 100 MB line it cannot hold in search_files instead of growing (peak under 200 MB)' do
    outcome = run_case('one_line_search')
    expect(texts(outcome).first).to match(/needle|Could not search 1 file: line\.txt/)
    expect(outcome[:peak_mb]).to be < 200
  end

  it 'reads and searches invalid UTF-8 with replacement characters' do
    read, search = texts(run_case('invalid_utf8'))
    expect(read).to start_with("café \uFFFD").and include('needle')
    expect(search).to start_with('bad.txt:1:café').and include('needle')
  end

  it 'transcodes UTF-16 with a BOM for read_file and search_files' do
    read, search = texts(run_case('utf16'))
    expect(read).to eq("first line\nthe needle \u00e9\n")
    expect(search).to eq("wide.txt:2:the needle \u00e9\n")
  end

  it 'answers patterns built to be slow at once, without running out of time' do
    results = texts(run_case('slow_regex'))
    expect(results.size).to eq(5)
    expect(results).to all(be_a(String).and(satisfy { |r| !r.include?('ran out of time') }))
    expect(results.last(2)).to eq(["a.txt\n", "a.txt\n"])
  end

  it 'refuses a pattern too large to compile, saying what to do' do
    results = texts(run_case('huge_regex'))
    expect(results).to all(match(error: /too large once compiled: make it simpler, or split it/))
  end

  it 'refuses a pattern or glob that is not UTF-8 (a lone surrogate from JSON), saying so' do
    search, list = texts(run_case('lone_surrogate'))
    expect(search).to match(error: /\Apattern .* is not valid UTF-8 text; write it in UTF-8\z/)
    expect(list).to match(error: /\Aglob .* is not valid UTF-8 text; write it in UTF-8\z/)
  end

  it 'refuses a zip bomb .docx, honest or lying about its size, in store.text and read_file (peak under 400 MB)' do
    outcome = run_case('zip_bomb')
    bomb_text, bomb_read, liar_text, liar_read = texts(outcome)
    expect([bomb_text, bomb_read]).to all(match(error: /bomb\.docx could not be read as text: .*zip bomb/))
    expect([liar_text, liar_read]).to all(match(error: /liar\.docx could not be read as text: .*(corrupt|larger)/))
    expect(bomb_text[:error]).to start_with('RubyLLM::FileStore::ConversionError')
    expect(outcome[:peak_mb]).to be < 400
  end
end
