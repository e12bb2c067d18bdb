# frozen_string_literal: true

require_relative 'code_execution_helper'

RSpec.describe RubyLLM::FileStore::CodeExecution::ChatExtension do
  include_context 'with code execution'

  # What the extension needs of a chat: file_store, with_tools, and the
  # integration's file_store_written.
  let(:chat_class) do
    Class.new do
      include RubyLLM::FileStore::CodeExecution::ChatExtension

      attr_accessor :file_store
      attr_reader :tools, :written

      def initialize
        @tools = {}
        @written = []
      end

      def with_tools(*tools)
        tools.each { |tool| @tools[tool.name.to_sym] = tool }
        self
      end

      private

      def file_store_written(file) = @written << file.path
    end
  end

  it 'needs a file store on the chat' do
    expect { chat_class.new.with_code_execution }
      .to raise_error(RubyLLM::ConfigurationError, /with_file_store first/)
  end

  it 'adds run_code over the chat store and tells the chat of the files an in-place run writes' do
    chat = chat_class.new
    chat.file_store = RubyLLM::NativeDir.new(File.join(@tmp, 'work'))
    expect(chat.with_code_execution(**CodeExecutionHelper::FAST)).to equal(chat)
    expect(chat.tools.keys).to eq([:run_code])
    expect(chat.code_execution.store).to equal(chat.file_store)
    chat.tools[:run_code].call('language' => 'shell', 'code' => 'echo hi > hi.txt')
    expect(chat.written).to eq(['hi.txt'])
  end

  it 'leaves staged writes to the integration, which sees them go through the store' do
    chat = chat_class.new
    chat.file_store = RubyLLM::FileStore::Memory.new
    chat.with_code_execution(**CodeExecutionHelper::FAST)
    chat.tools[:run_code].call('language' => 'shell', 'code' => 'echo hi > hi.txt')
    expect(chat.file_store.list.map(&:path)).to eq(['hi.txt'])
    expect(chat.written).to eq([])
  end

  it 'follows the chat store: a new store gets run_code over it, with the same options; removing it removes run_code' do
    chat = chat_class.new
    chat.file_store = RubyLLM::FileStore::Memory.new
    chat.with_code_execution(**CodeExecutionHelper::FAST.merge(timeout: 7))
    first_tool = chat.tools[:run_code]
    chat.file_store = RubyLLM::NativeDir.new(File.join(@tmp, 'next'))
    chat.send(:code_execution_follow_store)
    expect(chat.code_execution.store).to equal(chat.file_store)
    expect(chat.code_execution.limits).to include(timeout: 7)
    expect(chat.tools[:run_code]).not_to equal(first_tool)
    chat.tools[:run_code].call('language' => 'shell', 'code' => 'echo hi > moved.txt')
    expect(chat.file_store.list.map(&:path)).to eq(['moved.txt'])
    chat.file_store = nil
    chat.send(:code_execution_follow_store)
    expect([chat.code_execution, chat.tools]).to eq([nil, {}])
  end

  it 'installs into RubyLLM::Chat only when ruby_llm is loaded, once' do
    expect(described_class.install).to eq(RubyLLM.const_defined?(:Chat) && RubyLLM::Chat.is_a?(Class))
  end

  it 'is in RubyLLM::Chat with ruby_llm loaded', :ruby_llm do
    facts = RubyLLMSource.run do
      RubyLLM.configure { |config| config.openai_api_key = 'test-key' }
      chat = RubyLLM.chat(model: 'gpt-4.1-mini', provider: :openai, assume_model_exists: true)
      error = begin
        chat.with_code_execution
      rescue RubyLLM::ConfigurationError => e
        e.message
      end
      chat.with_file_store(:memory).with_code_execution(python: false)
      tool = chat.tools[:run_code].class.superclass.name
      moved = chat.with_file_store(:memory).code_execution.store.equal?(chat.file_store)
      chat.with_file_store(nil)
      { included: RubyLLM::Chat.include?(RubyLLM::FileStore::CodeExecution::ChatExtension),
        again: RubyLLM::FileStore::CodeExecution::ChatExtension.install, error:, tool:, moved:,
        after_nil: chat.tools.keys.map(&:to_s) }
    end
    expect(facts).to eq(included: true, again: true, error: facts[:error], tool: 'RubyLLM::Tool', moved: true,
                        after_nil: [])
    expect(facts[:error]).to include('with_file_store first')
  end
end
