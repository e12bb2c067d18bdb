# frozen_string_literal: true

RSpec.describe RubyLLM::FileStore::Tools::MoveFile do
  it 'is added by :move in tools:, and only then' do
    store = RubyLLM::FileStore::Memory.new
    names = ->(tools) { RubyLLM::FileStore::Tools.for(store, tools:).map(&:name) }
    expect(names.call(%i[read write edit move])).to include('move_file')
    expect(names.call(%w[read move])).to include('move_file')
    expect(names.call(%i[read write edit delete])).not_to include('move_file')
    expect { RubyLLM::FileStore::Tools.for(store, tools: %i[read mv]) }
      .to raise_error(ArgumentError, /choose from :read, :write, :edit, :delete and :move/)
  end

  it 'takes path and new_path, both required, and tells the model what it does in a few lines' do
    expect(described_class::PARAMETERS).to include(required: %w[path new_path], additionalProperties: false)
    expect(described_class::PARAMETERS[:properties].keys).to eq(%i[path new_path])
    expect(described_class::DESCRIPTION).to include('Moves or renames a file, or a folder', 'nothing is', 'overwritten')
    expect(described_class::DESCRIPTION.size).to be < 400
  end

  on_every_store do
    it 'moves a file without a read, and an edit right after needs no new read' do
      store.write('draft.md', "# Draft\n")
      call_tool('read_file', path: 'draft.md')
      expect(call_tool('move_file', path: 'draft.md', new_path: 'notes/final.md'))
        .to eq('Moved draft.md to notes/final.md.')
      expect(call_tool('edit_file', path: 'notes/final.md', old_text: 'Draft', new_text: 'Final'))
        .to start_with('Edited notes/final.md')
      expect(store.read('notes/final.md')).to eq("# Final\n")
      expect(store['draft.md']).to be_nil
    end

    it 'moves a file never read: no read is needed, and an edit then asks for one' do
      store.write('a.md', 'a')
      expect(call_tool('move_file', path: 'a.md', new_path: 'b.md')).to eq('Moved a.md to b.md.')
      expect(call_tool('edit_file', path: 'b.md', old_text: 'a', new_text: 'b'))
        .to eq(error: 'You have not read b.md. Read it with read_file first.')
    end

    it 'moves a folder with everything in it' do
      store.write('reports/q3.md', 'q3')
      store.write('reports/2025/q4.md', 'q4')
      expect(call_tool('move_file', path: 'reports', new_path: 'archive/reports'))
        .to eq('Moved the folder reports to archive/reports (2 files).')
      expect(store.list.map(&:path)).to eq(%w[archive/reports/2025/q4.md archive/reports/q3.md])
    end

    it 'refuses, as { error: }, a new_path that exists, a path that does not, and bad paths' do
      store.write('a.md', 'a')
      store.write('b.md', 'b')
      expect(call_tool('move_file', path: 'a.md', new_path: 'b.md'))
        .to eq(error: 'b.md already exists, and a move never overwrites: choose another new_path, or delete b.md ' \
                      'first if you mean to replace it.')
      expect(call_tool('move_file', path: 'gone.md', new_path: 'c.md'))
        .to eq(error: 'gone.md does not exist. list_files shows the files and folders there are.')
      expect(call_tool('move_file', path: 'a.md', new_path: '../c.md')).to include(:error)
      expect(call_tool('move_file', path: 'a.md'))
        .to eq(error: 'new_path is required: give a file path like notes/plan.md')
      expect(call_tool('move_file', new_path: 'c.md'))
        .to eq(error: 'path is required: give a file path like notes/plan.md')
      expect(store.list.map { |file| store.read(file.path) }).to eq(%w[a b])
    end
  end

  it 'refuses hidden paths on a NativeDir' do
    Dir.mktmpdir do |dir|
      store = RubyLLM::NativeDir.new(dir)
      store.write('a.md', 'a')
      tool = RubyLLM::FileStore::Tools.for(store, tools: %i[read move]).find { |t| t.name == 'move_file' }
      expect(tool.call('path' => 'a.md', 'new_path' => '.secret.md')[:error]).to match(/hidden/)
      expect(store.list.map(&:path)).to eq(['a.md'])
    end
  end
end
