# frozen_string_literal: true

RSpec.describe 'Installing into ruby_llm' do
  native = RubyLLM::FileStores::Native

  it 'works as a library without ruby_llm, and install! says what it needs' do
    skip 'ruby_llm is loaded' if native.ruby_llm_loaded?

    expect(native.installed?).to be(false)
    expect { native.install! }.to raise_error(RubyLLM::ConfigurationError, /require "ruby_llm" first/)
  end

  describe RubyLLM::FileStores::Native::Glue::Hooks do
    # Stand-ins with the hook points of ruby_llm 2.0, minus what an example removes.
    def stand_ins(without: nil)
      chat = chat_stand_in
      chat.send(:remove_method, without) if without
      stub_const('RubyLLM::Chat', chat)
      stub_const('RubyLLM::Agent', agent_stand_in)
      stub_const('RubyLLM::Message', message_stand_in)
      stub_const('RubyLLM::VERSION', '1.99.0')
    end

    def chat_stand_in
      Class.new do
        def add_message(*) = nil
        def with_tools(*) = nil
        def tools = nil
        def messages = nil

        private

        def preprocessed_messages(list = nil) = list
        def provider_completion(**) = nil
        def add_tool_result_message(_call, _result) = nil
        def execute_tool(_call) = nil
      end
    end

    def agent_stand_in
      Class.new do
        def self.apply_configuration(*) = nil
        private_class_method def self.runtime_context(**) = nil
      end
    end

    def message_stand_in
      Class.new do
        def initialize(content:, **) = (@content = content)
        def with_attachments(*) = self
      end
    end

    it 'passes when every hook point is there' do
      stand_ins
      expect(described_class.check!).to be(true)
    end

    it 'names a missing hook point, what it is for, and the ruby_llm needed' do
      stand_ins(without: :add_tool_result_message)
      expect { described_class.check! }.to raise_error(
        RubyLLM::FileStores::Native::IncompatibleRubyLLMError,
        /needs ruby_llm 2\.0.*ruby_llm 1\.99\.0 lacks RubyLLM::Chat#add_tool_result_message \(for saving long tool/
      )
    end
  end
end
