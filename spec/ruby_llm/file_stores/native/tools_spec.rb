# frozen_string_literal: true

RSpec.describe RubyLLM::FileStore::Tools do
  let(:store) { RubyLLM::FileStore::Memory.new }

  def names(**options) = described_class.for(store, **options).map(&:name)

  describe '.for' do
    it 'gives read, write and edit tools by default' do
      expect(names).to eq(%w[list_files read_file search_files write_file edit_file])
    end

    it 'gives each group its tools' do
      expect(names(tools: :read)).to eq(%w[list_files read_file search_files])
      expect(names(tools: %i[read delete])).to eq(%w[list_files read_file search_files delete_file])
      expect(names(tools: %w[read write edit delete]))
        .to eq(%w[list_files read_file search_files write_file edit_file delete_file])
    end

    it 'refuses a choice without :read, saying why' do
      expect { names(tools: %i[write edit]) }.to raise_error(ArgumentError, /must include :read.*older attachments/)
    end

    it 'refuses unknown names, saying which are known' do
      expect { names(tools: %i[read run]) }.to raise_error(ArgumentError, /unknown file tools :run: choose from :read/)
    end

    it 'needs a store and a sensible inline_limit' do
      expect { described_class.for('tmp/work') }.to raise_error(ArgumentError, /a file store is needed/)
      expect { described_class.for(store, inline_limit: 10) }.to raise_error(ArgumentError, /inline_limit/)
      expect(described_class.for(store, inline_limit: false).first.inline_limit).to be_nil
    end
  end

  describe 'each tool' do
    it 'has a name, a description and a JSON schema' do
      described_class.for(store, tools: %i[read write edit delete]).each do |tool|
        expect(tool.description).to be_a(String).and(satisfy { |d| d.size > 40 })
        expect(tool.parameters).to include(type: 'object', properties: a_kind_of(Hash))
        expect(tool.parameters_schema).to eq(tool.parameters)
        expect(JSON.parse(JSON.generate(tool.parameters))).to include('type' => 'object')
      end
    end

    it 'is not a RubyLLM::Tool when ruby_llm is not loaded' do
      skip 'ruby_llm is loaded' if defined?(RubyLLM::Tool)
      expect(described_class.for(store).first.class.ancestors).to include(described_class::StandaloneTool)
    end

    it 'takes string or symbol keys' do
      tool = described_class.for(store, tools: %i[read write]).find { |t| t.name == 'write_file' }
      expect(tool.call('path' => 'a.md', 'content' => 'x')).to start_with('Created a.md')
      expect(tool.call(path: 'b.md', content: 'x')).to start_with('Created b.md')
      expect(tool.call({ 'path' => 'c.md', 'content' => 'x' })).to start_with('Created c.md')
    end

    it 'answers an unknown argument as an error the model sees' do
      tool = described_class.for(store).find { |t| t.name == 'list_files' }
      expect(tool.call('folder' => 'x')).to eq(error: 'list_files has no argument folder')
    end

    it 'raises programming errors in the store instead of hiding them' do
      broken = Class.new(RubyLLM::FileStore::Memory) { def list(_ = nil) = raise('bug in the store') }.new
      tool = described_class.for(broken).find { |t| t.name == 'list_files' }
      expect { tool.call({}) }.to raise_error(RuntimeError, 'bug in the store')
    end
  end
end
