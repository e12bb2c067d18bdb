# frozen_string_literal: true

RSpec.describe RubyLLM::FileStore::Tools::EditFile do
  on_every_store do
    def read(*paths) = paths.each { |path| call_tool('read_file', path:) }

    before do
      store.write('app/models/user.rb', "class User\n  def full_name\n    name\n  end\nend\n")
      store.write('app/views/users/show.html.erb', "<%= user.full_name %>\n<%= user.full_name %>\n")
    end

    it 'replaces old_text that appears once' do
      read('app/models/user.rb')
      expect(call_tool('edit_file', path: 'app/models/user.rb', old_text: 'def full_name',
                                    new_text: 'def display_name'))
        .to eq('Edited app/models/user.rb (1 replacement).')
      expect(store.read('app/models/user.rb')).to include('def display_name')
    end

    it 'refuses old_text that does not appear, or appears more than once' do
      read('app/models/user.rb', 'app/views/users/show.html.erb')
      expect(call_tool('edit_file', path: 'app/models/user.rb', old_text: 'def nope', new_text: 'x'))
        .to eq(error: 'Edit 1: old_text does not appear in app/models/user.rb')
      expect(call_tool('edit_file', path: 'app/views/users/show.html.erb', old_text: 'user.full_name', new_text: 'x'))
        .to eq(error: 'Edit 1: old_text appears 2 times in app/views/users/show.html.erb; ' \
                      'add more context or set replace_all')
    end

    it 'refuses edits that would grow a file past the limit, and writes nothing (a fuzzing finding)' do
      store.write('grow.txt', 'aaaaaaaaaa')
      read('grow.txt')
      edits = Array.new(8) { { old_text: 'a', new_text: 'a' * 20, replace_all: true } }
      expect(call_tool('edit_file', path: 'grow.txt', edits:))
        .to eq(error: 'Edit 6: grow.txt would grow to 610 MB, over the 256 MB an edit may make; replace fewer spans')
      expect(store.read('grow.txt')).to eq('aaaaaaaaaa')
    end

    it 'replaces every occurrence with replace_all' do
      read('app/views/users/show.html.erb')
      expect(call_tool('edit_file', path: 'app/views/users/show.html.erb', old_text: 'full_name',
                                    new_text: 'display_name', replace_all: true))
        .to eq('Edited app/views/users/show.html.erb (2 replacements).')
    end

    it 'refuses an empty old_text and bad arguments' do
      read('app/models/user.rb')
      expect(call_tool('edit_file', path: 'app/models/user.rb', old_text: '', new_text: 'x'))
        .to match(error: /Edit 1: old_text is empty/)
      expect(call_tool('edit_file', path: 'app/models/user.rb', old_text: 'User', new_text: nil))
        .to match(error: /Edit 1: new_text must be a string/)
      expect(call_tool('edit_file', old_text: 'User', new_text: 'x')).to match(error: /Edit 1: path is required/)
      expect(call_tool('edit_file', path: 'app/models/user.rb', old_text: 'User', new_text: 'x', replace_all: 'yes'))
        .to match(error: /replace_all must be true or false/)
    end

    it 'applies several edits in order, across files, in one call' do
      read('app/models/user.rb', 'app/views/users/show.html.erb')
      result = call_tool('edit_file', edits: [
                           { 'path' => 'app/models/user.rb', 'old_text' => 'def full_name',
                             'new_text' => 'def display_name' },
                           { 'path' => 'app/views/users/show.html.erb', 'old_text' => 'user.full_name',
                             'new_text' => 'user.display_name', 'replace_all' => true },
                           { 'path' => 'app/models/user.rb', 'old_text' => 'def display_name',
                             'new_text' => 'def shown_name' }
                         ])
      expect(result).to eq('Edited app/models/user.rb (2 replacements), ' \
                           'app/views/users/show.html.erb (2 replacements).')
      expect(store.read('app/models/user.rb')).to include('def shown_name')
      expect(store.read('app/views/users/show.html.erb')).to eq("<%= user.display_name %>\n" * 2)
    end

    it "uses the call's path for edits that name none" do
      read('app/models/user.rb')
      call_tool('edit_file', path: 'app/models/user.rb',
                             edits: [{ old_text: 'class User', new_text: 'class Person' },
                                     { old_text: 'name', new_text: 'title', replace_all: true }])
      expect(store.read('app/models/user.rb')).to eq("class Person\n  def full_title\n    title\n  end\nend\n")
    end

    it 'writes nothing when any edit fails, and names the edit' do
      read('app/models/user.rb', 'app/views/users/show.html.erb')
      before = store.list.to_h { |f| [f.path, f.digest] }
      result = call_tool('edit_file', edits: [
                           { path: 'app/views/users/show.html.erb', old_text: 'user', new_text: 'u',
                             replace_all: true },
                           { path: 'app/models/user.rb', old_text: 'def full_name', new_text: 'def display_name' },
                           { path: 'app/models/user.rb', old_text: 'user.full_name', new_text: 'x' }
                         ])
      expect(result).to eq(error: 'Edit 3: old_text does not appear in app/models/user.rb')
      expect(store.list.to_h { |f| [f.path, f.digest] }).to eq(before)
    end

    it 'refuses a file the model has not read, or that changed since' do
      expect(call_tool('edit_file', path: 'app/models/user.rb', old_text: 'User', new_text: 'Person'))
        .to eq(error: 'You have not read app/models/user.rb. Read it with read_file first.')
      read('app/models/user.rb')
      store.write('app/models/user.rb', "class User # changed by a person\nend\n")
      expect(call_tool('edit_file', path: 'app/models/user.rb', old_text: 'User', new_text: 'Person'))
        .to eq(error: 'app/models/user.rb changed since you read it. Read it again.')
      expect(store.read('app/models/user.rb')).to eq("class User # changed by a person\nend\n")
    end

    it 'keeps editing a file it edited, which counts as read at its new digest' do
      read('app/models/user.rb')
      call_tool('edit_file', path: 'app/models/user.rb', old_text: 'class User', new_text: 'class Person')
      expect(call_tool('edit_file', path: 'app/models/user.rb', old_text: 'Person', new_text: 'Member'))
        .to start_with('Edited')
      expect(store.read_digest('app/models/user.rb')).to eq(Digest::SHA256.hexdigest(store.read('app/models/user.rb')))
    end

    it 'says a missing file does not exist and points to write_file' do
      expect(call_tool('edit_file', path: 'new.md', old_text: 'a', new_text: 'b'))
        .to eq(error: 'Edit 1: new.md does not exist. Create it with write_file.')
    end

    it 'keeps CRLF line endings, a BOM, a missing final newline and invalid UTF-8 outside the edit' do
      original = "\xEF\xBB\xBFfirst line\r\nbad \xFF byte\r\nlast line".b
      store.write('windows.txt', original)
      read('windows.txt')
      call_tool('edit_file', path: 'windows.txt', old_text: "first line\nbad", new_text: "1st line\nBAD")
      expect(store.read('windows.txt')).to eq("\xEF\xBB\xBF1st line\r\nBAD \xFF byte\r\nlast line".b)
    end
  end

  it 'names the files already changed when the store fills up partway' do
    store = RubyLLM::FileStore::Memory.new(max_bytes: 30)
    store.write('a.txt', 'aaaa')
    store.write('b.txt', 'bbbb')
    tools = RubyLLM::FileStore::Tools.for(store).to_h { |t| [t.name, t] }
    %w[a.txt b.txt].each { |path| tools['read_file'].call(path:) }
    result = tools['edit_file'].call(edits: [{ path: 'a.txt', old_text: 'aaaa', new_text: 'A' * 10 },
                                             { path: 'b.txt', old_text: 'bbbb', new_text: 'B' * 30 }])
    expect(result[:error]).to start_with("This chat's files are full: delete or overwrite files.")
    expect(result[:error]).to end_with('Writing b.txt failed. Already changed: a.txt.')
    expect(store.read('a.txt')).to eq('A' * 10)
    expect(store.read('b.txt')).to eq('bbbb')
  end
end
