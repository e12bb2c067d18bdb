# frozen_string_literal: true

RSpec.describe RubyLLM::FileStore::Tools::WriteFile do
  on_every_store do
    it 'creates a new file without a read, and folders as needed' do
      expect(call_tool('write_file', path: 'notes/new/plan.md', content: "# Plan\n"))
        .to eq('Created notes/new/plan.md (1 line, 7 bytes).')
      expect(store.read('notes/new/plan.md')).to eq("# Plan\n")
    end

    it 'refuses to replace a file the model has not read' do
      store.write('notes/plan.md', "mine\n")
      expect(call_tool('write_file', path: 'notes/plan.md', content: 'x'))
        .to eq(error: 'You have not read notes/plan.md. Read it with read_file first.')
      expect(store.read('notes/plan.md')).to eq("mine\n")
    end

    it 'refuses to replace a file that changed since the model read it' do
      store.write('notes/plan.md', "v1\n")
      call_tool('read_file', path: 'notes/plan.md')
      store.write('notes/plan.md', "v2 by a person\n")
      expect(call_tool('write_file', path: 'notes/plan.md', content: 'x'))
        .to eq(error: 'notes/plan.md changed since you read it. Read it again.')
      expect(store.read('notes/plan.md')).to eq("v2 by a person\n")
    end

    it 'replaces a file read at its current version, which then counts as read' do
      store.write('a.md', 'v1')
      call_tool('read_file', path: 'a.md')
      expect(call_tool('write_file', path: 'a.md', content: "v2\nmore\n")).to eq('Replaced a.md (2 lines, 8 bytes).')
      expect(call_tool('write_file', path: 'a.md', content: 'v3')).to start_with('Replaced a.md')
      expect(store.read_digest('a.md')).to eq(Digest::SHA256.hexdigest('v3'))
    end

    it 'keeps writing a file it created' do
      call_tool('write_file', path: 'draft.md', content: 'one')
      expect(call_tool('write_file', path: 'draft.md', content: 'two')).to start_with('Replaced')
      expect(store.read('draft.md')).to eq('two')
    end

    it 'needs path and content' do
      expect(call_tool('write_file', content: 'x')).to match(error: /path is required/)
      expect(call_tool('write_file', path: 'a.md')).to match(error: /content is required/)
      expect(call_tool('write_file', path: '../a.md', content: 'x')).to match(error: /contains \.\./)
    end
  end

  it 'passes on a full store as an error the model sees' do
    store = RubyLLM::FileStore::Memory.new(max_bytes: 5)
    tool = RubyLLM::FileStore::Tools.for(store, tools: %i[read write]).find { |t| t.name == 'write_file' }
    expect(tool.call(path: 'a.md', content: 'too long')).to match(error: /\AThis chat's files are full/)
  end
end
