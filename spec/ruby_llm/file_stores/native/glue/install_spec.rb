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

    # Stand-ins for acts_as_chat and its records' methods, minus one.
    def record_stand_ins(without: nil)
      acts_as = Module.new.tap { |mod| mod.const_set(:ClassMethods, Module.new { def acts_as_chat(**) = nil }) }
      methods = Module.new do
        def to_llm = nil
        def add_message(_message) = nil

        private

        def build_llm_chat = nil
        def persist_content(_message_record, _attachments) = nil
      end
      methods.send(:remove_method, without) if without
      stub_const('RubyLLM::ActiveRecord::ActsAs', acts_as)
      stub_const('RubyLLM::ActiveRecord::ChatMethods', methods)
      stub_const('RubyLLM::VERSION', '1.99.0')
    end

    it "passes when acts_as_chat records have every hook point, and names a missing one and what it's for" do
      record_stand_ins
      expect(described_class.check_records!).to be(true)
      record_stand_ins(without: :build_llm_chat)
      expect { described_class.check_records! }.to raise_error(
        RubyLLM::FileStores::Native::IncompatibleRubyLLMError,
        /for acts_as_chat records.*lacks RubyLLM::ActiveRecord::ChatMethods#build_llm_chat \(for giving a chat loaded/
      )
    end
  end

  describe RubyLLM::FileStores::Native::Glue::RecordExtension do
    let(:blob) { Struct.new(:filename, :byte_size, :checksum).new('a.md', 1, Digest::MD5.base64digest('x')) }
    let(:record) { Struct.new(:role, :attachments).new('user', [Struct.new(:blob).new(blob)]) }
    let(:chat) do
      Class.new do
        attr_reader :kept, :file_store

        def initialize(store) = (@file_store = store) && (@kept = [])
        def keep_file_store_attachment(attachment, blob) = kept << [attachment.filename, blob.filename]
      end
    end
    let(:attachment) { Struct.new(:filename, :content).new('a.md', 'x') }

    it "keeps a question's attachments by the message's blobs, in a store that keeps blobs" do
      blob_store = Object.new.tap { |store| def store.keep_blob(*) = nil }
      with_blobs = chat.new(blob_store)
      described_class.keep_attachments(with_blobs, record, [attachment])
      memory = chat.new(RubyLLM::FileStore::Memory.new)
      described_class.keep_attachments(memory, record, [attachment])
      answer = chat.new(blob_store)
      described_class.keep_attachments(answer, Struct.new(:role, :attachments).new('assistant', []), [attachment])
      expect([with_blobs.kept, memory.kept, answer.kept]).to eq([[%w[a.md a.md]], [], []])
    end
  end
end
