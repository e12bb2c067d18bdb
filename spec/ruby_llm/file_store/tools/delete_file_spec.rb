# frozen_string_literal: true

RSpec.describe RubyLLM::FileStore::Tools::DeleteFile do
  on_every_store do
    it 'deletes one file' do
      store.write('old.md', 'x')
      expect(call_tool('delete_file', path: 'old.md')).to eq('Deleted old.md.')
      expect(store['old.md']).to be_nil
    end

    it 'says a missing file does not exist, and refuses a folder' do
      store.write('reports/q3.csv', 'x')
      expect(call_tool('delete_file', path: 'gone.md')).to eq(error: 'gone.md does not exist.')
      expect(call_tool('delete_file', path: 'reports'))
        .to eq(error: 'reports is a folder; delete_file deletes one file at a time.')
      expect(store.exist?('reports/q3.csv')).to be(true)
    end

    it 'forgets what the model read of the file' do
      store.write('a.md', 'x')
      call_tool('read_file', path: 'a.md')
      call_tool('delete_file', path: 'a.md')
      expect(store.read_digest('a.md')).to be_nil
    end
  end
end
