# frozen_string_literal: true

require 'digest'

RSpec.describe RubyLLM::FileStore::Mounts do
  include_context 'in a temporary folder'

  # A Memory store that logs when its lock is taken and what moves it was asked.
  let(:spying) do
    Class.new(RubyLLM::FileStore::Memory) do
      attr_accessor :name, :log

      def with_lock(&)
        log&.push([:lock, name]) unless held?
        @held = (@held || 0) + 1
        super
      ensure
        @held -= 1
      end

      def held? = @held.to_i.positive?

      def move(path, new_path)
        log&.push([:move, name, path, new_path])
        super
      end
    end
  end

  def spy(name, log, **options) = spying.new(**options).tap { |s| s.name = name }.tap { |s| s.log = log }

  def tools(store, *groups) = RubyLLM::FileStore::Tools.for(store, tools: [:read, *groups])
  def tool(store, name, *groups) = tools(store, *groups).find { |t| t.name == name }

  describe 'as a file store' do
    # Paths of the shared examples under reports/ go to the mounted folder.
    subject(:store) { described_class.new(RubyLLM::FileStore::Memory.new, 'reports' => :memory) }

    def full_store(max_bytes) = described_class.new(RubyLLM::FileStore::Memory.new(max_bytes:))

    it_behaves_like 'a file store'
  end

  let(:chat) { RubyLLM::FileStore::Memory.new }
  let(:handbook_dir) { RubyLLM::NativeDir.new(File.join(@tmp, 'handbook')) }
  let(:handbook) { RubyLLM::NativeDir.new(File.join(@tmp, 'handbook'), read_only: true) }
  let(:scratch) { RubyLLM::FileStore::Memory.new }
  let(:store) { described_class.new(chat, 'handbook' => handbook, 'scratch' => scratch) }

  describe 'routing' do
    it 'sends a path under a mount to its store without the prefix, and every other path to the default' do
      store.write('scratch/plan.md', 'plan')
      store.write('notes.md', 'notes')
      store.write('scratchpad.md', 'not under the mount')
      expect(scratch.list.map(&:path)).to eq(['plan.md'])
      expect(chat.list.map(&:path)).to eq(%w[notes.md scratchpad.md])
      expect(store.read('scratch/plan.md')).to eq('plan')
      expect(store.store_for('scratch/plan.md')).to eq([scratch, 'plan.md'])
    end

    it 'gives the longest mount name its paths' do
      docs = RubyLLM::FileStore::Memory.new
      api = RubyLLM::FileStore::Memory.new
      tree = described_class.new(chat, 'docs' => docs, 'docs/api' => api)
      tree.write('docs/api/v1.md', 'v1')
      tree.write('docs/guide.md', 'guide')
      tree.write('docs/apis.md', 'not api')
      expect(api.list.map(&:path)).to eq(['v1.md'])
      expect(docs.list.map(&:path)).to eq(%w[apis.md guide.md])
      expect(tree.list.map(&:path)).to eq(%w[docs/api/v1.md docs/apis.md docs/guide.md])
    end

    it 'takes mount names by the store path rules, refusing .., hidden names and a name given twice' do
      expect { described_class.new(chat, '../up' => :memory) }.to raise_error(ArgumentError, /not a store path/)
      expect { described_class.new(chat, '.secret' => :memory) }.to raise_error(ArgumentError, /hidden/)
      expect { described_class.new(chat, 'a/.b' => :memory) }.to raise_error(ArgumentError, /hidden/)
      expect { described_class.new(chat, '' => :memory) }.to raise_error(ArgumentError, /not a store path/)
      expect { described_class.new(chat, 'a' => :memory, 'a/' => :memory) }.to raise_error(ArgumentError, /twice/)
      expect { described_class.new(chat, 'a' => 42) }.to raise_error(ArgumentError, /mount a must be/)
      expect(described_class.new(chat, './x//y' => :memory).mounts.keys).to eq(['x/y'])
    end

    it 'makes :memory and folder paths stores' do
      tree = described_class.new(:memory, 'scratch' => :memory, 'disk' => File.join(@tmp, 'disk'))
      expect(tree.default_store).to be_a(RubyLLM::FileStore::Memory)
      expect(tree.mounts.values.map(&:class)).to eq([RubyLLM::NativeDir, RubyLLM::FileStore::Memory])
    end

    it 'refuses a file at a mount point, or on the way to one: a mount point is a folder' do
      tree = described_class.new(chat, 'handbook' => :memory, 'docs/api' => :memory)
      expect { tree.write('handbook', 'x') }
        .to raise_error(ArgumentError, 'handbook is a folder where a store is mounted, not a file: write a file ' \
                                       'inside it, or choose another name.')
      expect { tree.write('docs', 'x') }.to raise_error(ArgumentError, /docs is a folder where a store is mounted/)
      expect(chat.list).to eq([])
      expect(tree['handbook']).to be_nil
      expect { tree.read('handbook') }.to raise_error(RubyLLM::FileNotFoundError, 'handbook does not exist')
      expect { tree.delete('handbook') }.to raise_error(ArgumentError, /handbook is a folder/)
    end

    it 'hides what the default store holds under a mount or at a mount point' do
      chat.write('scratch/old.md', 'hidden by the mount')
      chat.write('handbook', 'a file where the mount is')
      scratch.write('new.md', 'seen')
      expect(store.list.map(&:path)).to eq(['scratch/new.md'])
      expect(store['scratch/old.md']).to be_nil
      expect(store.search('hidden|seen')).to eq("scratch/new.md:1:seen\n")
    end

    it 'gives StoredFiles with full paths' do
      file = store.write('scratch/a.md', 'abc')
      expect(file).to have_attributes(path: 'scratch/a.md', byte_size: 3, digest: Digest::SHA256.hexdigest('abc'))
      expect(store.find('scratch/a.md')).to eq(file)
      expect(store.delete('scratch/a.md').path).to eq('scratch/a.md')
    end

    it 'names the full path in the errors of a mounted store' do
      full = described_class.new(chat, 'small' => RubyLLM::FileStore::Memory.new(max_bytes: 5))
      handbook_dir.write('policy.md', "# Policy\n")
      expect { store.read('scratch/nope.md') }
        .to raise_error(RubyLLM::FileNotFoundError, 'scratch/nope.md does not exist')
      expect { store.find('handbook/nope.md') }
        .to raise_error(RubyLLM::FileNotFoundError, 'handbook/nope.md does not exist')
      expect { store.write('handbook/policy.md', 'mine') }
        .to raise_error(RubyLLM::FileStore::ReadOnlyError, 'handbook/policy.md is read-only. Write your own copy ' \
                                                           'elsewhere, such as notes/policy.md.')
      expect { store.delete('handbook/policy.md') }
        .to raise_error(RubyLLM::FileStore::ReadOnlyError) { |e| expect(e.path).to eq('handbook/policy.md') }
      expect { full.write('small/big.md', 'too big') }
        .to raise_error(RubyLLM::FileStoreFullError, %r{Writing small/big\.md needs 7 bytes})
      scratch.write('a.md', 'a')
      scratch.write('b.md', 'b')
      expect { store.move('scratch/a.md', 'scratch/b.md') }
        .to raise_error(RubyLLM::FileExistsError) { |e| expect(e.message).to start_with('scratch/b.md already exists') }
    end
  end

  describe 'listing' do
    before do
      handbook_dir.write('policy.md', "# Policy\nholidays\n")
      handbook_dir.write('hr/leave.md', "leave\n")
      chat.write('notes.md', "notes\n")
      chat.write('a.md', "a\n")
      chat.write('zeta/z.md', "z\n")
      scratch.write('tmp.txt', "tmp\n")
    end

    it 'lists every store as one tree, sorted by path' do
      expect(store.list.map(&:path))
        .to eq(%w[a.md handbook/hr/leave.md handbook/policy.md notes.md scratch/tmp.txt zeta/z.md])
      expect(store.list('handbook').map(&:path)).to eq(%w[handbook/hr/leave.md handbook/policy.md])
      expect(store.list('handbook/hr').map(&:path)).to eq(%w[handbook/hr/leave.md])
      expect(store.list('zeta').map(&:path)).to eq(%w[zeta/z.md])
      expect(store.list('nowhere')).to eq([])
    end

    it 'shows the mounts in a folder above them' do
      tree = described_class.new(chat, 'docs/api' => scratch)
      chat.write('docs/guide.md', 'g')
      expect(tree.list('docs').map(&:path)).to eq(%w[docs/api/tmp.txt docs/guide.md])
    end

    it 'gives list_files the whole tree' do
      expect(tool(store, 'list_files').call({})).to eq(<<~TEXT)
        a.md (text/markdown, 2 bytes)
        handbook/hr/leave.md (text/markdown, 6 bytes)
        handbook/policy.md (text/markdown, 18 bytes)
        notes.md (text/markdown, 6 bytes)
        scratch/tmp.txt (text/plain, 4 bytes)
        zeta/z.md (text/markdown, 2 bytes)
      TEXT
      expect(tool(store, 'list_files').call('path' => 'handbook', 'glob' => '*.md').lines.size).to eq(2)
    end
  end

  describe 'search' do
    before do
      handbook_dir.write('policy.md', "# Policy\nholidays: 25 days\nsick days\n")
      handbook_dir.write('hr/2024-01-leave.md', "leave\nholidays carry over\n")
      chat.write('a.md', "holidays in a\n")
      chat.write('zeta.md', "holidays in zeta\n")
      scratch.write('tmp.txt', "holidays in scratch\n")
    end

    it 'searches every store with its own engine and merges the lines in path order' do
      expect(store.search('holidays')).to eq(<<~TEXT)
        a.md:1:holidays in a
        handbook/hr/2024-01-leave.md:2:holidays carry over
        handbook/policy.md:2:holidays: 25 days
        scratch/tmp.txt:1:holidays in scratch
        zeta.md:1:holidays in zeta
      TEXT
    end

    it 'keeps context lines and group breaks, and lists files for files_only' do
      expect(store.search('holidays', path: 'handbook', context: 1)).to eq(<<~TEXT)
        handbook/hr/2024-01-leave.md-1-leave
        handbook/hr/2024-01-leave.md:2:holidays carry over
        --
        handbook/policy.md-1-# Policy
        handbook/policy.md:2:holidays: 25 days
        handbook/policy.md-3-sick days
      TEXT
      expect(store.search('days', files_only: true))
        .to eq("a.md\nhandbook/hr/2024-01-leave.md\nhandbook/policy.md\nscratch/tmp.txt\nzeta.md\n")
    end

    it 'holds the match cap for the whole search, not per store' do
      expect(store.search('holidays', max_matches: 3)).to eq(<<~TEXT)
        a.md:1:holidays in a
        handbook/hr/2024-01-leave.md:2:holidays carry over
        handbook/policy.md:2:holidays: 25 days
        [Stopped after 3 matching lines; there are more. Narrow the search with path or glob, or a more specific pattern.]
      TEXT
      expect(store.search('holidays', files_only: true, max_matches: 2).lines.last)
        .to start_with('[Stopped after 2 files; there are more.')
    end

    it 'stops where a store stopped at its cap, since files after it were not all searched' do
      40.times { |i| chat.write(format('b%02d.md', i), "holidays\n") }
      out = store.search('holidays', max_matches: 10)
      expect(out.lines.grep(/:1:|:2:/).size).to eq(10)
      expect(out).not_to include('handbook/')
      expect(out.lines.last).to start_with('[Stopped after 10 matching lines')
    end

    it 'holds the character cap for the whole search' do
      long = "holidays #{'x' * 300}\n"
      20.times { |i| scratch.write("s#{i}.md", long) }
      20.times { |i| chat.write("c#{i}.md", long) }
      out = store.search('holidays', max_chars: 5_000)
      expect(out.bytesize).to be <= 5_000
      expect(out.lines.last).to start_with('[Stopped at 5000 characters; there are more matches.')
    end

    it 'narrows to one mount, or a folder inside one, with path:' do
      expect(store.search('holidays',
                          path: 'handbook/hr')).to eq("handbook/hr/2024-01-leave.md:2:holidays carry over\n")
      expect(store.search('holidays', path: 'scratch')).to eq("scratch/tmp.txt:1:holidays in scratch\n")
      expect { store.search('holidays', path: 'nowhere') }.to raise_error(RubyLLM::FileNotFoundError, /nowhere/)
      expect { store.search('holidays', path: 'handbook/nowhere') }
        .to raise_error(RubyLLM::FileNotFoundError, 'handbook/nowhere does not exist')
    end

    it 'applies a glob with folders to the full paths' do
      expect(store.search('holidays', glob: 'handbook/*.md')).to eq("handbook/policy.md:2:holidays: 25 days\n")
      expect(store.search('holidays', glob: 'handbook/**/*.md').lines.size).to eq(2)
      expect(store.search('holidays', glob: '*.txt')).to eq("scratch/tmp.txt:1:holidays in scratch\n")
      expect(store.search('holidays', glob: 'zeta*')).to eq("zeta.md:1:holidays in zeta\n")
    end

    it 'names the files it skipped once, with full paths, across stores' do
      scratch.write('scan.pdf', '%PDF-1.4 holidays'.b, content_type: 'application/pdf')
      chat.write('deck.pdf', '%PDF-1.4 holidays'.b, content_type: 'application/pdf')
      out = store.search('nothing-matches-this')
      expect(out).to eq("No matches.\nSkipped 2 files with no extracted text: deck.pdf, scratch/scan.pdf. " \
                        "Read them with read_file first.\n")
    end

    it 'has one deadline for the whole search' do
      out = store.search('holidays', timeout: 0)
      expect(out).to start_with('No matches.')
      expect(out).to include('[Stopped: the search ran out of time after 0 files.')
    end

    it 'gives search_files the merged output' do
      expect(tool(store, 'search_files').call('pattern' => 'sick', 'path' => 'handbook'))
        .to eq("handbook/policy.md:3:sick days\n")
    end
  end

  describe 'read before change' do
    it 'holds per file, in the store that holds it' do
      scratch.write('plan.md', "one\n")
      edit = tool(store, 'edit_file', :edit)
      expect(edit.call('path' => 'scratch/plan.md', 'old_text' => 'one', 'new_text' => 'two'))
        .to eq(error: 'You have not read scratch/plan.md. Read it with read_file first.')
      tool(store, 'read_file').call('path' => 'scratch/plan.md')
      expect(scratch.read_digest('plan.md')).to eq(Digest::SHA256.hexdigest("one\n"))
      expect(chat.read_digest('scratch/plan.md')).to be_nil
      expect(edit.call('path' => 'scratch/plan.md', 'old_text' => 'one', 'new_text' => 'two'))
        .to eq('Edited scratch/plan.md (1 replacement).')
      scratch.write('plan.md', "changed elsewhere\n")
      expect(edit.call('path' => 'scratch/plan.md', 'old_text' => 'changed', 'new_text' => 'x'))
        .to eq(error: 'scratch/plan.md changed since you read it. Read it again.')
    end

    it 'lets the write tools refuse a read-only mount per file, naming the full path' do
      handbook_dir.write('policy.md', "# Policy\n")
      tool(store, 'read_file').call('path' => 'handbook/policy.md')
      expect(tool(store, 'write_file', :write).call('path' => 'handbook/policy.md', 'content' => 'mine'))
        .to eq(error: 'handbook/policy.md is read-only. Write your own copy elsewhere, such as notes/policy.md.')
      expect(tool(store, 'write_file', :write).call('path' => 'notes/policy.md', 'content' => 'mine'))
        .to eq('Created notes/policy.md (1 line, 4 bytes).')
    end
  end

  describe 'locks' do
    let(:log) { [] }
    let(:a) { spy('default', log) }
    let(:b) { spy('b', log) }
    let(:c) { spy('c', log) }
    let(:tree) { described_class.new(a, 'c' => c, 'b' => b) }

    # The order every tree takes these stores' locks in, whatever their mount names.
    def by_key(*stores) = stores.sort_by(&:lock_key).map { |store| [:lock, store.name] }

    it 'with_lock takes every store that can change, sorted by lock_key' do
      tree.with_lock { log << :inside }
      expect(log).to eq([*by_key(a, b, c), :inside])
    end

    it 'leaves read-only stores out of with_lock: they have nothing to lock' do
      ro = spy('ro', log, read_only: true)
      described_class.new(a, 'ro' => ro).with_lock { log << :inside }
      expect(log).to eq([[:lock, 'default'], :inside])
    end

    it 'a change takes the lock of the store that holds the file, only' do
      tree.write('c/x.md', 'x')
      expect(log).to eq([[:lock, 'c']])
    end

    it 'a move between stores takes both locks in lock_key order, whichever way it goes' do
      tree.write('c/x.md', 'x')
      tree.write('b/y.md', 'y')
      log.clear
      tree.move('c/x.md', 'b/x.md')
      first = log.take_while { |entry| entry.first == :lock }
      tree.move('b/y.md', 'c/y.md')
      expect(first).to eq(by_key(b, c))
      expect(log.drop(first.size).take(2)).to eq(by_key(b, c))
    end

    it 'two moves in opposite directions between the same stores finish (no deadlock)' do
      disk_a = RubyLLM::NativeDir.new(File.join(@tmp, 'a'))
      disk_b = RubyLLM::NativeDir.new(File.join(@tmp, 'b'))
      one = described_class.new(chat, 'a' => disk_a, 'b' => disk_b)
      other = described_class.new(chat, 'a' => disk_a, 'b' => disk_b)
      50.times { |i| disk_a.write("a#{i}.md", 'a') && disk_b.write("b#{i}.md", 'b') }
      threads = [Thread.new { 50.times { |i| one.move("a/a#{i}.md", "b/a#{i}.md") } },
                 Thread.new { 50.times { |i| other.move("b/b#{i}.md", "a/b#{i}.md") } }]
      expect(threads.map { |t| t.join(20) }).to all(be_truthy)
      expect(disk_a.list.map(&:path)).to match_array(Array.new(50) { |i| "b#{i}.md" })
      expect(disk_b.list.map(&:path)).to match_array(Array.new(50) { |i| "a#{i}.md" })
    end
  end

  describe 'move' do
    let(:log) { [] }
    let(:notes) { spy('notes', log) }
    let(:tree) { described_class.new(chat, 'notes' => notes, 'handbook' => handbook) }

    it 'moves within a store with that store\'s own move' do
      notes.write('a.md', 'a')
      expect(tree.move('notes/a.md', 'notes/old/a.md').path).to eq('notes/old/a.md')
      expect(log).to include([:move, 'notes', 'a.md', 'old/a.md'])
    end

    it 'moves a file between stores, with its read digest, and leaves nothing behind' do
      chat.write('draft.md', "draft\n")
      tool(tree, 'read_file').call('path' => 'draft.md')
      moved = tree.move('draft.md', 'notes/draft.md')
      expect(moved).to have_attributes(path: 'notes/draft.md', digest: Digest::SHA256.hexdigest("draft\n"))
      expect(chat.list).to eq([])
      expect(notes.read('draft.md')).to eq("draft\n")
      expect(tool(tree, 'edit_file', :edit).call('path' => 'notes/draft.md', 'old_text' => 'draft', 'new_text' => 'x'))
        .to eq('Edited notes/draft.md (1 replacement).')
      expect(chat.read_digest('draft.md')).to be_nil
    end

    it 'moves a folder between stores, sorted, and refuses an existing new path or a missing path' do
      chat.write('inbox/b.md', 'b')
      chat.write('inbox/a/c.md', 'c')
      expect(tree.move('inbox', 'notes/inbox').map(&:path)).to eq(%w[notes/inbox/a/c.md notes/inbox/b.md])
      expect(chat.list).to eq([])
      notes.write('x.md', 'x')
      chat.write('x.md', 'mine')
      expect { tree.move('x.md', 'notes/x.md') }.to raise_error(RubyLLM::FileExistsError, %r{notes/x\.md already})
      expect do
        tree.move('nope.md', 'notes/nope.md')
      end.to raise_error(RubyLLM::FileNotFoundError, 'nope.md does not exist')
      expect(chat.read('x.md')).to eq('mine')
    end

    it 'refuses a move out of or into a read-only mount, naming the full path' do
      handbook_dir.write('policy.md', 'p')
      chat.write('mine.md', 'm')
      expect { tree.move('handbook/policy.md', 'policy.md') }
        .to raise_error(RubyLLM::FileStore::ReadOnlyError, %r{\Ahandbook/policy\.md is read-only})
      expect { tree.move('mine.md', 'handbook/mine.md') }
        .to raise_error(RubyLLM::FileStore::ReadOnlyError, %r{\Ahandbook/mine\.md is read-only})
      expect(handbook_dir.list.map(&:path)).to eq(['policy.md'])
      expect(chat.list.map(&:path)).to eq(['mine.md'])
    end

    it 'refuses to move a mount point or a folder holding one, or onto one' do
      deep = described_class.new(chat, 'docs/api' => :memory)
      chat.write('docs/guide.md', 'g')
      chat.write('loose.md', 'l')
      expect { deep.move('docs', 'old-docs') }.to raise_error(ArgumentError, /docs is where a store is mounted/)
      expect { deep.move('docs/api', 'api') }.to raise_error(ArgumentError, /where a store is mounted/)
      expect { deep.move('loose.md', 'docs/api') }.to raise_error(RubyLLM::FileExistsError)
      expect(deep.move('docs/guide.md', 'guide.md').path).to eq('guide.md')
    end

    it 'leaves the source as it was when a copy fails half-way' do
      failing = Class.new(RubyLLM::FileStore::Memory) do
        def write(path, content, content_type: nil)
          raise RubyLLM::FileStoreFullError, "no room for #{path}" if path.end_with?('c.md')

          super
        end
      end.new
      tree = described_class.new(chat, 'full' => failing)
      %w[box/a.md box/b.md box/c.md].each { |path| chat.write(path, path) }
      expect { tree.move('box', 'full/box') }.to raise_error(RubyLLM::FileStoreFullError, 'no room for full/box/c.md')
      expect(chat.list.map(&:path)).to eq(%w[box/a.md box/b.md box/c.md])
      expect(failing.list).to eq([])
    end

    it 'announces the moved files as written' do
      chat.write('a.md', 'a')
      _, written = RubyLLM::FileStores::Native::WriteEvents.listen(tree) { tree.move('a.md', 'notes/a.md') }
      expect(written.map(&:path)).to eq(['notes/a.md'])
    end
  end

  describe 'delete_folder' do
    before do
      chat.write('top.md', 't')
      chat.write('docs/guide.md', 'g')
      scratch.write('s.md', 's')
    end

    it 'never reaches into a mount from the root or a folder above it' do
      tree = described_class.new(chat, 'scratch' => scratch, 'docs/api' => :memory)
      tree.write('docs/api/v1.md', 'v1')
      expect(tree.delete_folder('').map(&:path)).to eq(%w[docs/guide.md top.md])
      expect(tree.list.map(&:path)).to eq(%w[docs/api/v1.md scratch/s.md])
      expect(tree.delete_folder('docs')).to eq([])
      expect(tree.list.map(&:path)).to eq(%w[docs/api/v1.md scratch/s.md])
    end

    it 'deletes a folder inside a mount, or at the mount point every file of the mount' do
      scratch.write('old/x.md', 'x')
      expect(store.delete_folder('scratch/old').map(&:path)).to eq(['scratch/old/x.md'])
      expect(scratch.list.map(&:path)).to eq(['s.md'])
      expect(store.delete_folder('scratch').map(&:path)).to eq(['scratch/s.md'])
      expect(scratch.list).to eq([])
      handbook_dir.write('policy.md', 'p')
      expect do
        store.delete_folder('handbook')
      end.to raise_error(RubyLLM::FileStore::ReadOnlyError, /\Ahandbook is read-only/)
    end
  end

  describe 'owners, converted texts and attachments' do
    it 'scopes the default store to an owner and leaves the mounts shared' do
      owner = Struct.new(:id).new(7)
      mine = store.for_owner(owner)
      mine.write('mine.md', 'm')
      expect(mine.owner).to eq(owner)
      expect(mine.mounts['scratch']).to equal(scratch)
      expect(store.list.map(&:path)).not_to include('mine.md')
    end

    it 'keeps converted texts and attachments where they belong' do
      file = store.write('scratch/deck.pdf', '%PDF-1.4'.b, content_type: 'application/pdf')
      store.cache_text(file, 'the deck')
      expect(scratch.cached_text(scratch['deck.pdf'])).to eq('the deck')
      expect(store.search('deck')).to eq("scratch/deck.pdf:1:the deck\n")
      store.remember_attachment('key', 'attachments/a.png')
      expect(chat.attachment_path('key')).to eq('attachments/a.png')
    end
  end
end
