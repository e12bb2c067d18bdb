# frozen_string_literal: true

require_relative 'code_execution_helper'

# The guide's flow: a revenue export plotted with pandas and matplotlib from
# PyPI, installed once into the cached environment. Installing takes minutes
# the first time, so this runs when CODE_EXECUTION_PYPI=1 or when the
# environment is already in the cache (RUBY_LLM_CODE_CACHE, else
# ~/.cache/ruby_llm/code_execution), and skips saying so otherwise.
RSpec.describe RubyLLM::FileStore::CodeExecution, 'plotting revenue with pandas and matplotlib', :pypi do
  include_context 'with code execution'

  let(:packages) { %w[pandas matplotlib] }

  before do
    info = RubyLLM::FileStore::CodeExecution::Environments.python_info
    ready = RubyLLM::FileStore::CodeExecution::Environments::PythonEnv.ready?(
      info, packages, RubyLLM::FileStore::CodeExecution.default_cache_dir
    )
    unless ready || ENV['CODE_EXECUTION_PYPI'] == '1'
      skip 'the pandas + matplotlib environment is not in the cache: run with CODE_EXECUTION_PYPI=1 once ' \
           '(installs from PyPI, takes minutes)'
    end
  end

  let(:csv) do
    rows = (1..12).flat_map do |month|
      [1, 15].map { |day| format('2025-%<m>02d-%<d>02d,%<amount>d', m: month, d: day, amount: (month * 100) + day) }
    end
    "date,amount\n#{rows.join("\n")}\n"
  end

  let(:plot) do
    <<~PY
      import pandas as pd
      import matplotlib.pyplot as plt
      df = pd.read_csv('revenue.csv', parse_dates=['date'])
      monthly = df.groupby(df['date'].dt.to_period('M'))['amount'].sum()
      monthly.plot(kind='bar', title='Monthly revenue')
      plt.tight_layout()
      plt.savefig('revenue.png')
      print(len(monthly), int(monthly.sum()))
    PY
  end

  def check(store, result)
    expect([result.exit_status, result.stderr]).to eq([0, ''])
    expect(result.stdout).to eq("12 #{(1..12).sum { |m| (m * 200) + 16 }}\n")
    check_files(store, result)
  end

  def check_files(store, result)
    expect(result.created).to eq(['revenue.png'])
    expect(store.list.map(&:path)).to eq(%w[revenue.csv revenue.png])
    expect(store.read('revenue.png')).to start_with("\x89PNG".b)
    expect(store.find('revenue.png').content_type).to eq('image/png')
  end

  it 'runs in place in a NativeDir' do
    store = RubyLLM::NativeDir.new(File.join(@tmp, 'work'))
    store.write('revenue.csv', csv)
    runner = described_class.new(store, python: packages, timeout: 120)
    check(store, runner.run(language: 'python', code: plot))
  end

  it 'runs staged over a Memory store, through the tool' do
    store = RubyLLM::FileStore::Memory.new
    store.write('revenue.csv', csv)
    seen = []
    runner = described_class.new(store, python: packages, timeout: 120, on_write: ->(file) { seen << file.path })
    answer = runner.tool.call('language' => 'python', 'code' => plot, 'files' => ['revenue.csv'])
    expect(answer).to include(exit_status: 0, created: ['revenue.png'])
    expect(seen).to eq(['revenue.png'])
    expect(store.read('revenue.png')).to start_with("\x89PNG".b)
  end

  it 'goes end to end through a ruby_llm chat: the attachment kept, run_code called, the chart in the files',
     :ruby_llm do
    csv_path = File.join(@tmp, 'revenue.csv')
    File.write(csv_path, csv)
    work = File.join(@tmp, 'chat-work')
    s = ScriptedOpenAIServer
    code = plot
    facts = RubyLLMSource.run do
      server = ScriptedOpenAIServer.start([s.tool_calls(['run_code', { language: 'python', code: }]),
                                           s.text('Here is the plot: revenue.png')])
      RubyLLM.configure do |config|
        config.openai_api_key = 'test-key'
        config.openai_api_base = server.url
        config.max_retries = 0
      end
      chat = RubyLLM.chat(model: 'gpt-4.1-mini', provider: :openai, protocol: :chat_completions,
                          assume_model_exists: true)
      written = []
      chat.with_file_store(work).with_code_execution(python: packages, timeout: 120)
      chat.after_file_write { |file| written << file.path }
      reply = chat.ask 'Plot monthly revenue from this export', with: csv_path
      { paths: chat.file_store.list.map(&:path), written:, reply: reply.content,
        tool_result: server.requests.last['messages'].find { |m| m['role'] == 'tool' }['content'] }
    ensure
      server&.stop
    end
    expect(facts[:paths]).to eq(%w[revenue.csv revenue.png])
    expect(facts[:written]).to include('revenue.png')
    expect(JSON.parse(facts[:tool_result])).to include('exit_status' => 0, 'created' => ['revenue.png'])
    expect(facts[:reply]).to eq('Here is the plot: revenue.png')
  end
end

RSpec.describe RubyLLM::FileStore::CodeExecution, 'with a package PyPI does not have', :pypi do
  include_context 'with code execution'

  before { skip 'asks PyPI: run with CODE_EXECUTION_PYPI=1' unless ENV['CODE_EXECUTION_PYPI'] == '1' }

  it 'raises ConfigurationError at construction with what pip said, and keeps no half-made environment' do
    cache = File.join(@tmp, 'cache')
    expect do
      described_class.new(RubyLLM::FileStore::Memory.new, python: ['ruby-llm-no-such-package-0e7c1'], cache_dir: cache)
    end.to raise_error(RubyLLM::ConfigurationError,
                       /could not install the Python packages ruby-llm-no-such-package-0e7c1 with pip:\n.*0e7c1/m)
    expect(Dir.children(cache).grep_v(/\.lock\z/)).to eq([])
  end
end
