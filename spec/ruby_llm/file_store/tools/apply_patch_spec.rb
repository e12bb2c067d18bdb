# frozen_string_literal: true

# apply_patch (issue #31). The Codex behaviours it keeps and the ones it
# changes are named in each example (Codex: github.com/openai/codex,
# codex-rs/apply-patch, its tests/fixtures/scenarios and seek_sequence.rs);
# README's "apply_patch" section lists them.
RSpec.describe RubyLLM::FileStore::Tools::ApplyPatch do
  let(:user) { "class User\n  def full_name\n    name\n  end\n\n  def age\n    1\n  end\nend\n" }

  def wrap(body) = "*** Begin Patch\n#{body}*** End Patch\n"

  on_every_store do
    let(:patch_tools) { RubyLLM::FileStore::Tools.for(store, tools: %i[read patch]).to_h { |t| [t.name, t] } }

    def read(*paths) = paths.each { |path| patch_tools.fetch('read_file').call('path' => path) }
    def patch(text) = patch_tools.fetch('apply_patch').call('patch' => text)

    before do
      store.write('app/models/user.rb', user)
      store.write('a.rb', "a\n")
      store.write('old.rb', "old\n")
    end

    it 'updates, adds, deletes and moves in one call, and says so in one line' do
      read('app/models/user.rb', 'a.rb', 'old.rb')
      result = patch(wrap(<<~PATCH))
        *** Update File: app/models/user.rb
        @@ def full_name
        -    name
        +    [first, last].join(' ')
        @@ def age
        -    1
        +    2
        *** Add File: app/models/account.rb
        +class Account
        +end
        *** Delete File: old.rb
        *** Update File: a.rb
        *** Move to: b.rb
      PATCH
      expect(result).to eq('Updated app/models/user.rb (2 hunks), added app/models/account.rb, deleted old.rb, ' \
                           'moved a.rb to b.rb.')
      expected = user.sub('    name', "    [first, last].join(' ')").sub('    1', '    2')
      expect(store.read('app/models/user.rb')).to eq(expected)
      expect(store.read('app/models/account.rb')).to eq("class Account\nend\n")
      expect(store.list.map(&:path)).to eq(%w[app/models/account.rb app/models/user.rb b.rb])
      expect(store.read('b.rb')).to eq("a\n")
    end

    it 'writes nothing when a later hunk does not match, naming the file and the hunk (Codex keeps earlier files)' do
      read('app/models/user.rb', 'a.rb')
      result = patch(wrap(<<~PATCH))
        *** Update File: a.rb
        @@
        -a
        +changed
        *** Add File: created.txt
        +new
        *** Update File: app/models/user.rb
        @@ def full_name
        -    name
        +    full
        @@ def age
        -    42
        +    43
      PATCH
      expect(result[:error]).to start_with('Hunk 2 of app/models/user.rb does not match: ')
      expect(result[:error]).to include('from "    42"').and include('Nothing was changed.')
      expect(store.read('a.rb')).to eq("a\n")
      expect(store.read('app/models/user.rb')).to eq(user)
      expect(store['created.txt']).to be_nil
    end

    it 'refuses files not read, or changed since, with the other tools\' words (Codex needs no read)' do
      expect(patch(wrap("*** Update File: a.rb\n@@\n-a\n+b\n")))
        .to eq(error: 'You have not read a.rb. Read it with read_file first.')
      expect(patch(wrap("*** Delete File: old.rb\n")))
        .to eq(error: 'You have not read old.rb. Read it with read_file first.')
      expect(patch(wrap("*** Add File: a.rb\n+x\n")))
        .to eq(error: 'You have not read a.rb. Read it with read_file first.')
      read('a.rb')
      store.write('a.rb', "someone else\n")
      expect(patch(wrap("*** Update File: a.rb\n@@\n-a\n+b\n")))
        .to eq(error: 'a.rb changed since you read it. Read it again.')
      expect(store.read('a.rb')).to eq("someone else\n")
      expect(store.list.map(&:path)).to include('old.rb')
    end

    it 'counts a file it wrote as read for the next call' do
      read('a.rb')
      expect(patch(wrap("*** Update File: a.rb\n@@\n-a\n+b\n*** Add File: n.txt\n+1\n")))
        .to eq('Updated a.rb (1 hunk), added n.txt.')
      expect(patch(wrap("*** Update File: a.rb\n@@\n-b\n+c\n*** Update File: n.txt\n@@\n-1\n+2\n")))
        .to eq('Updated a.rb (1 hunk), updated n.txt (1 hunk).')
      expect([store.read('a.rb'), store.read('n.txt')]).to eq(%W[c\n 2\n])
    end

    it 'replaces an existing file with Add File only once it was read (Codex overwrites it unread)' do
      read('a.rb')
      expect(patch(wrap("*** Add File: a.rb\n+fresh\n"))).to eq('Replaced a.rb.')
      expect(store.read('a.rb')).to eq("fresh\n")
    end

    it 'moves onto an existing file only once it was read, like write_file (Codex overwrites it unread)' do
      read('a.rb')
      expect(patch(wrap("*** Update File: a.rb\n*** Move to: old.rb\n")))
        .to eq(error: 'You have not read old.rb. Read it with read_file first.')
      expect(store.read('a.rb')).to eq("a\n")
      read('old.rb')
      expect(patch(wrap("*** Update File: a.rb\n*** Move to: old.rb\n@@\n-a\n+moved\n")))
        .to eq('Moved a.rb to old.rb (1 hunk).')
      expect(store['a.rb']).to be_nil
      expect(store.read('old.rb')).to eq("moved\n")
    end

    it 'moves with store.move, into new folders, and the moved file stays read' do
      read('a.rb')
      expect(patch(wrap("*** Update File: a.rb\n*** Move to: lib/deep/b.rb\n@@\n-a\n+b\n")))
        .to eq('Moved a.rb to lib/deep/b.rb (1 hunk).')
      expect(store['a.rb']).to be_nil
      expect(patch(wrap("*** Update File: lib/deep/b.rb\n@@\n-b\n+c\n"))).to eq('Updated lib/deep/b.rb (1 hunk).')
    end

    it 'refuses a hunk that matches in several places, naming the lines (Codex takes the first)' do
      read('app/models/user.rb')
      result = patch(wrap("*** Update File: app/models/user.rb\n@@\n-  end\n+  end # done\n"))
      expect(result[:error]).to start_with('Hunk 1 of app/models/user.rb is ambiguous: ')
      expect(result[:error]).to include('2 places (at lines 4, 8)')
      expect(store.read('app/models/user.rb')).to eq(user)
    end

    it 'narrows the place with several @@ lines, and anchors at the end with *** End of File' do
      store.write('two.rb', "class A\n  def x\n    1\n  end\nend\nclass B\n  def x\n    1\n  end\nend\n")
      read('two.rb')
      expect(patch(wrap("*** Update File: two.rb\n@@ class B\n@@   def x\n-    1\n+    2\n")))
        .to eq('Updated two.rb (1 hunk).')
      expect(store.read('two.rb')).to end_with("class B\n  def x\n    2\n  end\nend\n")
      expect(patch(wrap("*** Update File: two.rb\n@@\n   end\n-end\n+end # B\n*** End of File\n")))
        .to eq('Updated two.rb (1 hunk).')
      expect(store.read('two.rb')).to end_with("  end\nend # B\n")
      expect(store.read('two.rb')).to start_with("class A\n  def x\n    1\n  end\nend\n")
    end

    it 'matches as Codex does: trailing, then surrounding whitespace, then typographic punctuation' do
      store.write('t.md', "title   \n    indented\nIt’s “quoted” — yes\u00a0no\n")
      read('t.md')
      expect(patch(wrap("*** Update File: t.md\n@@\n-title\n+Title\n  indented\n"))).to eq('Updated t.md (1 hunk).')
      expect(patch(wrap("*** Update File: t.md\n@@\n-It's \"quoted\" - yes no\n+plain\n")))
        .to eq('Updated t.md (1 hunk).')
      # Context lines stay as the file has them (Codex writes the patch's version).
      expect(store.read('t.md')).to eq("Title\n    indented\nplain\n")
    end

    it 'keeps CRLF and a missing final newline (Codex ends every file with LF)' do
      store.write('win.txt', "one\r\ntwo\r\nthree")
      read('win.txt')
      expect(patch(wrap("*** Update File: win.txt\n@@\n one\n-two\n+2\n+2b\n"))).to eq('Updated win.txt (1 hunk).')
      expect(store.read('win.txt')).to eq("one\r\n2\r\n2b\r\nthree")
    end

    it 'tolerates whitespace around the markers and an empty line at the end' do
      read('a.rb')
      text = "  *** Begin Patch \n *** Update File: a.rb  \n@@\n-a\n+b\n  *** End Patch  \n\n"
      expect(patch(text)).to eq('Updated a.rb (1 hunk).')
    end

    it 'refuses what is not a patch, an empty patch and bad hunk lines, with the line' do
      expect(patch('hello'))
        .to eq(error: "The patch is not valid: line 1 of the patch: the patch must start with '*** Begin Patch'. " \
                      'Nothing was changed.')
      expect(patch(wrap(''))[:error]).to include('changes no file')
      read('a.rb')
      expect(patch(wrap("*** Update File: a.rb\n@@\n?a\n"))[:error]).to include('line 4 of the patch')
      expect(patch('')).to match(error: /patch is required/)
    end

    it 'refuses hidden paths, a path named twice, folders and missing files, writing nothing' do
      read('a.rb')
      expect(patch(wrap("*** Update File: a.rb\n@@\n-a\n+b\n*** Add File: .env\n+SECRET=1\n"))[:error])
        .to start_with('.env is hidden')
      expect(patch(wrap("*** Update File: a.rb\n*** Move to: app/.cache/a.rb\n"))[:error])
        .to start_with('app/.cache/a.rb is hidden')
      expect(patch(wrap("*** Update File: a.rb\n@@\n-a\n+b\n*** Delete File: a.rb\n"))[:error])
        .to start_with('a.rb appears twice in the patch')
      expect(patch(wrap("*** Delete File: app/models\n"))[:error]).to start_with('*** Delete: app/models is a folder')
      expect(patch(wrap("*** Update File: nope.rb\n@@\n-a\n"))[:error])
        .to eq('*** Update File: nope.rb does not exist. To create it, use *** Add File. Nothing was changed.')
      expect(patch(wrap("*** Delete File: nope.rb\n"))[:error])
        .to start_with('*** Delete File: nope.rb does not exist.')
      expect(patch(wrap("*** Add File: ../out.txt\n+x\n"))).to have_key(:error)
      expect(store.read('a.rb')).to eq("a\n")
    end

    it_behaves_like 'apply_patch placing every path before writing'
  end

  describe 'placing paths in a tree of stores and in a folder on disk' do
    include_context 'in a temporary folder'

    context 'when the store is a tree of stores' do
      let(:store) do
        RubyLLM::FileStore::Mounts.new(RubyLLM::FileStore::Memory.new,
                                       'disk' => RubyLLM::NativeDir.new(File.join(@tmp, 'disk')))
      end

      it_behaves_like 'apply_patch placing every path before writing'

      it 'refuses a new file through a file of another store, or where a mount or an empty folder is' do
        store.write('disk/report.txt', "r\n")
        store.write('top.txt', "t\n")
        tools = RubyLLM::FileStore::Tools.for(store, tools: %i[read patch]).to_h { |t| [t.name, t] }
        tools.fetch('read_file').call('path' => 'top.txt')
        Dir.mkdir(File.join(@tmp, 'disk', 'empty'))
        apply = lambda do |body|
          tools.fetch('apply_patch').call('patch' => wrap("*** Update File: top.txt\n@@\n-t\n+u\n#{body}"))
        end
        expect(apply.call("*** Add File: disk/report.txt/x\n+x\n")[:error])
          .to start_with('*** Add File: disk/report.txt/x goes through disk/report.txt, which is a file')
        expect(apply.call("*** Add File: disk\n+x\n")[:error]).to start_with('*** Add: disk is a folder')
        expect(apply.call("*** Add File: disk/empty\n+x\n")[:error])
          .to eq('*** Add: disk/empty is a folder; the patch changes files. Nothing was changed.')
        expect(store.read('top.txt')).to eq("t\n")
        expect(store['disk/empty']).to be_nil
      end
    end

    context 'when the store is a NativeDir with an empty folder' do
      let(:store) { RubyLLM::NativeDir.new(@tmp) }

      it 'refuses a file where the folder is, or a move onto it, writing nothing (the store would refuse later)' do
        store.write('x.txt', "x\n")
        tools = RubyLLM::FileStore::Tools.for(store, tools: %i[read patch]).to_h { |t| [t.name, t] }
        tools.fetch('read_file').call('path' => 'x.txt')
        Dir.mkdir(File.join(@tmp, 'd'))
        body = "*** Update File: x.txt\n@@\n-x\n+y\n*** Add File: d\n+i\n"
        result = tools.fetch('apply_patch').call('patch' => wrap(body))
        expect(result).to eq(error: '*** Add: d is a folder; the patch changes files. Nothing was changed.')
        result = tools.fetch('apply_patch').call('patch' => wrap("*** Update File: x.txt\n*** Move to: d\n"))
        expect(result).to eq(error: '*** Move to: d is a folder; the patch changes files. Nothing was changed.')
        expect(store.read('x.txt')).to eq("x\n")
        expect(File.directory?(File.join(@tmp, 'd'))).to be(true)
      end
    end
  end

  describe 'its place among the tools' do
    it 'is added by :patch in tools:, with one argument, patch' do
      store = RubyLLM::FileStore::Memory.new
      names = RubyLLM::FileStore::Tools.for(store, tools: %i[read write edit patch]).map(&:name)
      expect(names).to include('apply_patch', 'edit_file')
      expect(RubyLLM::FileStore::Tools.for(store).map(&:name)).not_to include('apply_patch')
      tool = RubyLLM::FileStore::Tools.for(store, tools: %i[read patch]).find { |t| t.name == 'apply_patch' }
      expect(tool.parameters[:properties].keys).to eq([:patch])
      expect(tool.parameters[:required]).to eq(['patch'])
    end
  end

  describe 'stores that refuse' do
    let(:tools) { RubyLLM::FileStore::Tools.for(store, tools: %i[read patch]).to_h { |t| [t.name, t] } }

    def patch(text) = tools.fetch('apply_patch').call('patch' => text)

    context 'when the store is read-only' do
      let(:store) { RubyLLM::FileStore::Memory.new(read_only: true) }

      it 'refuses the whole patch with ReadOnlyError\'s words' do
        expect(patch(wrap("*** Add File: handbook/policy.md\n+x\n")))
          .to eq(error: 'handbook/policy.md is read-only. Write your own copy elsewhere, such as notes/policy.md.')
      end
    end

    context 'when the store fills part-way' do
      let(:store) do
        Class.new(RubyLLM::FileStore::Memory) do
          def write(path, content, content_type: nil)
            raise RubyLLM::FileStoreFullError, "This chat's files are full." if path == 'big.txt'

            super
          end
        end.new
      end

      it 'names what already changed' do
        store.write('a.rb', "a\n")
        tools.fetch('read_file').call('path' => 'a.rb')
        result = patch(wrap("*** Update File: a.rb\n@@\n-a\n+b\n*** Add File: big.txt\n+x\n"))
        expect(result).to eq(error: "This chat's files are full. Writing big.txt failed. Already changed: " \
                                    'updated a.rb (1 hunk).')
      end
    end

    context 'when another thread holds the store' do
      let(:store) { RubyLLM::FileStore::Memory.new }

      it 'waits for its lock, as edit_file does' do
        store.write('a.rb', "a\n")
        tools.fetch('read_file').call('path' => 'a.rb')
        inside = Queue.new
        release = Queue.new
        holder = Thread.new do
          store.with_lock do
            inside << true
            release.pop
          end
        end
        inside.pop
        patcher = Thread.new { patch(wrap("*** Update File: a.rb\n@@\n-a\n+b\n")) }
        expect(patcher.join(0.2)).to be_nil # still waiting: the holder has the lock
        release << true
        expect(patcher.value).to eq('Updated a.rb (1 hunk).')
        holder.join
      end
    end
  end
end
