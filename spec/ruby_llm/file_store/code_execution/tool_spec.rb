# frozen_string_literal: true

require_relative 'code_execution_helper'

RSpec.describe RubyLLM::FileStore::CodeExecution::Tool do
  include_context 'with code execution'

  let(:memory) { RubyLLM::FileStore::Memory.new }
  let(:folder) { RubyLLM::NativeDir.new(File.join(@tmp, 'work')) }

  it 'is run_code, with a files argument only where runs are staged' do
    staged = runner_for(memory).tool
    in_place = runner_for(folder).tool
    expect([staged.name, in_place.name]).to eq(%w[run_code run_code])
    expect(staged.parameters[:properties].keys).to eq(%i[language code files])
    expect(in_place.parameters[:properties].keys).to eq(%i[language code])
    expect(staged.parameters[:properties][:language][:enum]).to eq(%w[python ruby shell])
    expect(staged.description).to include('empty folder')
    expect(in_place.description).to include('in the folder that holds your files')
  end

  it 'takes string or symbol keys and answers a Hash the model reads' do
    tool = runner_for(memory).tool
    expect(tool.call('language' => 'python', 'code' => 'print(2 + 2)')).to eq(exit_status: 0, stdout: "4\n")
    expect(tool.call(language: 'ruby', code: 'warn "oops"; exit 2')).to eq(exit_status: 2, stdout: '',
                                                                           stderr: "oops\n")
  end

  it 'answers what the model can fix as an error' do
    tool = runner_for(memory, ruby: false).tool
    expect(tool.call('language' => 'ruby', 'code' => 'p 1')[:error]).to eq(
      'language must be one of python, shell, not "ruby"'
    )
    expect(tool.call('language' => 'python', 'code' => ' ')[:error]).to include('code is required')
    expect(tool.call('language' => 'python', 'code' => 'print(1)', 'files' => 5)[:error])
      .to include('files must be a list')
    expect(tool.call('language' => 'python', 'code' => 'print(1)', 'files' => ['../etc/passwd'])[:error])
      .to include('..')
    expect(tool.call('language' => 'python', 'code' => 'print(1)', 'path' => 'x')[:error])
      .to eq('run_code has no argument path')
  end
end

RSpec.describe RubyLLM::FileStore::CodeExecution, 'construction' do
  include_context 'with code execution'

  let(:store) { RubyLLM::FileStore::Memory.new }

  it 'checks its limits and options' do
    expect { described_class.new(store, timeout: 0) }.to raise_error(ArgumentError, /timeout must be a positive/)
    expect { described_class.new(store, memory: 1.5) }.to raise_error(ArgumentError, /memory must be a positive whole/)
    expect { described_class.new(store, timeot: 3) }.to raise_error(ArgumentError, /unknown option timeot/)
    expect { described_class.new(:memory) }.to raise_error(ArgumentError, /a file store is needed/)
    expect { described_class.new(store, ruby: %w[rails]) }.to raise_error(ArgumentError, /ruby: must be true/)
    expect { described_class.new(store, python: ['--index-url=http://evil']) }
      .to raise_error(ArgumentError, /not a Python package requirement/)
    expect { described_class.new(store, python: false, ruby: false, shell: false) }
      .to raise_error(ArgumentError, /at least one language/)
  end

  it 'raises ConfigurationError at construction for a language asked for that the machine lacks' do
    allow(RubyLLM::FileStore::CodeExecution::Environments).to receive(:python_info)
      .and_raise(RubyLLM::ConfigurationError, 'run_code needs python3 for Python code and it is not on PATH')
    expect { described_class.new(store, python: true) }.to raise_error(RubyLLM::ConfigurationError, /python3/)
    expect { described_class.new(store, python: %w[pandas]) }.to raise_error(RubyLLM::ConfigurationError)
    expect(described_class.new(store).languages.keys).to eq(%w[ruby shell])
  end

  it 'raises ConfigurationError without bubblewrap, unless sandbox: false' do
    path = ENV.fetch('PATH')
    ENV['PATH'] = @tmp
    expect { described_class.new(store, python: false, ruby: true) }
      .to raise_error(RubyLLM::ConfigurationError, /bubblewrap.*sandbox: false/)
    expect(described_class.new(store, python: false, ruby: true, sandbox: false)).not_to be_sandboxed
  ensure
    ENV['PATH'] = path
  end

  it 'raises ConfigurationError naming Linux on a system bubblewrap does not run on (macOS), unless sandbox: false' do
    stub_const('RUBY_PLATFORM', 'arm64-darwin23')
    path = ENV.fetch('PATH')
    ENV['PATH'] = @tmp
    expect { described_class.new(store, python: false, ruby: true) }
      .to raise_error(RubyLLM::ConfigurationError, /only on Linux.*arm64-darwin23.*sandbox: false/)
    expect(described_class.new(store, python: false, ruby: true, sandbox: false)).not_to be_sandboxed
  ensure
    ENV['PATH'] = path
  end

  it 'keeps Python environments under RUBY_LLM_CODE_CACHE by default' do
    cache = ENV.fetch('RUBY_LLM_CODE_CACHE', nil)
    ENV['RUBY_LLM_CODE_CACHE'] = File.join(@tmp, 'cache')
    expect(described_class.default_cache_dir).to eq(File.join(@tmp, 'cache'))
    ENV.delete('RUBY_LLM_CODE_CACHE')
    expect(described_class.default_cache_dir).to eq(File.join(Dir.home, '.cache', 'ruby_llm', 'code_execution'))
  ensure
    ENV['RUBY_LLM_CODE_CACHE'] = cache
  end
end
