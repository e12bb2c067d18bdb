# frozen_string_literal: true

RSpec.describe 'Installing into ruby_llm' do
  native = RubyLLM::FileStores::Native

  it 'works as a library without ruby_llm, and install! says what it needs' do
    skip 'ruby_llm is loaded' if native.ruby_llm_loaded?

    expect(native.installed?).to be(false)
    expect { native.install! }.to raise_error(RubyLLM::ConfigurationError, /require "ruby_llm" first/)
  end

  # Against real ruby_llm versions (copies named by RUBY_LLM_SOURCE,
  # RUBY_LLM_1_16_SOURCE, RUBY_LLM_1_9_SOURCE; see RubyLLMSource): which
  # adapter each gets, and that loading works whichever comes first.
  describe 'with ruby_llm loaded' do
    adapters = { 'main' => '2.0', '1.16' => '1.16', '1.9' => nil }

    # What a Ruby with ruby_llm +version+ reports: the adapter in use,
    # install! again, the file tools over a NativeDir and a search, and what
    # with_file_store does. +gem_first+ requires this gem before ruby_llm
    # can be found, and installs with install!.
    def report(version, gem_first:)
      folders = RubyLLMSource.folders(version).inspect
      load = if gem_first
               "require 'ruby_llm/file_stores/native'; $LOAD_PATH.unshift(*#{folders}); " \
                 "require 'ruby_llm'; installed = RubyLLM::FileStores::Native.install!; "
             else
               "require 'ruby_llm'; require 'ruby_llm/file_stores/native'; " \
                 'installed = RubyLLM::FileStores::Native.install!; '
             end
      script = "#{load}require 'tmpdir'; native = RubyLLM::FileStores::Native; " \
               'integration = RubyLLM::FileStore::Integration; ' \
               "store = RubyLLM::NativeDir.new(Dir.mktmpdir); store.write('a.md', 'hello there'); " \
               'RubyLLM.configure { |c| c.openai_api_key = "k" }; ' \
               "chat = RubyLLM.chat(model: 'gpt-4.1-mini', provider: :openai, assume_model_exists: true); " \
               'error = begin; chat.with_file_store(store); nil; rescue native::IncompatibleRubyLLMError => e; ' \
               'e.message; end; ' \
               'p [integration::Adapters.current&.line, native.installed?, installed, native.install!, ' \
               'RubyLLM::FileStore::Tools.for(store).map(&:name), store.search("hel", files_only: true), ' \
               'chat.file_store.class.name, error, RubyLLM::Chat.ancestors.count(integration::ChatExtension)]'
      RubyLLMSource.ruby(version, script, ruby_llm: !gem_first)
    end

    RubyLLMSource.each_version(self, adapters.keys) do
      it 'loads whichever comes first, the stores and tools work, and with_file_store works or says why not' do
        expected = adapters.fetch(ruby_llm_version)
        reports = [report(ruby_llm_version, gem_first: false), report(ruby_llm_version, gem_first: true)]
        facts = reports.map { |out| eval(out.lines.last) } # rubocop:disable Security/Eval -- our own child's p
        tools = %w[list_files read_file search_files write_file edit_file]
        facts.each_with_index do |(line, installed, first_install, again, names, found, store, error, count), index|
          expect([line, installed, again, names, found, count]).to eq([expected, true, false, tools, "a.md\n", 1])
          expect(first_install).to be(index == 1) # ruby_llm first: require installed it already
          if expected
            expect([store, error]).to eq(['RubyLLM::NativeDir', nil])
          else
            expect(store).to eq('NilClass')
            expect(error).to match(
              /\Awith_file_store needs ruby_llm 2\.0 or 1\.16; the loaded ruby_llm 1\.9\.0 lacks .*/
            ).and include('RubyLLM::Agent.apply_configuration (for the agent file_store macro)',
                          'chat.with_tools(*RubyLLM::FileStore::Tools.for(store))')
          end
        end
      end
    end
  end

  describe RubyLLM::FileStore::Integration::RecordExtension do
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
