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

    it 'takes a search_timeout for search_files' do
      expect { described_class.for(store, search_timeout: 0) }.to raise_error(ArgumentError, /search_timeout/)
      200.times { |i| store.write("f#{i}.txt", "line\n" * 100) }
      tool = described_class.for(store, search_timeout: 1e-9).find { |t| t.name == 'search_files' }
      expect(tool.search_timeout).to eq(1e-9)
      expect(tool.call(pattern: 'nothing')).to include('ran out of time')
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

RSpec.describe RubyLLM::FileStore::Tools, 'with RubyLLM::Tool defined' do
  # A stand-in for ruby_llm 2.0's RubyLLM::Tool (the class-level API the
  # tools meet: tool_name derived from the class name, description, call),
  # defined in a forked child so the rest of the suite runs without it. The
  # integration spec against ruby_llm itself belongs to the ruby_llm integration.
  def in_child_with_tool_class
    reader, writer = IO.pipe
    pid = fork do
      reader.close
      RubyLLM.const_set(:Tool, Class.new do
        def self.tool_name = name.to_s.split('::').last.gsub(/([a-z])([A-Z])/, '\1_\2').downcase
        def self.description(text = nil) = text ? (@description = text) : @description
        def name = self.class.tool_name
      end)
      writer.write(Marshal.dump(yield))
      writer.close
      exit!(0)
    end
    writer.close
    result = Marshal.load(reader.read) # rubocop:disable Security/MarshalLoad -- from our own child
    Process.wait(pid)
    result
  end

  it 'makes each tool a RubyLLM::Tool subclass named exactly as the tool' do
    facts = in_child_with_tool_class do
      store = RubyLLM::FileStore::Memory.new
      tools = described_class.for(store, tools: %i[read write edit delete])
      written = tools.find { |t| t.name == 'write_file' }.call('path' => 'a.md', 'content' => 'x')
      { subclasses: tools.map { |t| t.is_a?(RubyLLM::Tool) }, names: tools.map(&:name),
        tool_names: tools.map { |t| t.class.tool_name }, described: tools.map do |t|
                                                                      t.class.description == t.description
                                                                    end,
        written: }
    end
    names = %w[list_files read_file search_files write_file edit_file delete_file]
    expect(facts).to eq(subclasses: [true] * 6, names:, tool_names: names, described: [true] * 6,
                        written: 'Created a.md (1 line, 1 byte).')
  end
end
