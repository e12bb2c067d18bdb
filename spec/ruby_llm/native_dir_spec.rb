# frozen_string_literal: true

require 'fileutils'

RSpec.describe RubyLLM::NativeDir, :native do
  subject(:store) { described_class.new(root) }

  include_context 'in a temporary folder'

  let(:root) { File.join(@tmp, 'store') }
  let(:outside) { File.join(@tmp, 'outside').tap { |dir| FileUtils.mkdir_p(dir) } }

  def full_store(max_bytes) = described_class.new(File.join(@tmp, "full-#{max_bytes}"), max_bytes:)

  it_behaves_like 'a file store'
  it_behaves_like 'a store with folders'
  it_behaves_like 'a store that moves files'
  it_behaves_like 'a store with one text per file'

  context 'with read_only: true' do
    it_behaves_like 'a read-only store' do
      let(:writer) { described_class.new(root) }
      let(:store) { described_class.new(root, read_only: true) }
    end

    it 'refuses a read_only: that is not true or false' do
      expect do
        described_class.new(root, read_only: 1)
      end.to raise_error(ArgumentError, /read_only must be true or false/)
    end
  end

  it 'moves with one rename: the same inode at the new path, hidden names refused' do
    store.write('a.md', 'a')
    inode = File.stat(File.join(root, 'a.md')).ino
    store.move('a.md', 'b/c.md')
    expect(File.stat(File.join(root, 'b/c.md')).ino).to eq(inode)
    expect { store.move('b/c.md', '.hidden.md') }.to raise_error(ArgumentError, /hidden/)
    expect { store.move('.git', 'x') }.to raise_error(ArgumentError, /hidden/)
  end

  it 'does not move a link, nor through one' do
    File.write(File.join(outside, 'secret.md'), 's')
    store.write('a.md', 'a')
    File.symlink(File.join(outside, 'secret.md'), File.join(root, 'link.md'))
    File.symlink(outside, File.join(root, 'out'))
    expect { store.move('link.md', 'b.md') }.to raise_error(RubyLLM::FileNotFoundError)
    expect { store.move('a.md', 'out/a.md') }.to raise_error(ArgumentError, /symbolic link/)
    expect { store.move('out', 'in') }.to raise_error(RubyLLM::FileNotFoundError)
    expect(Dir.children(outside)).to eq(['secret.md'])
    expect(store.list.map(&:path)).to eq(['a.md'])
  end

  it 'is RubyLLM::FileStore::Directory' do
    expect(RubyLLM::FileStore::Directory).to be(described_class)
    expect(described_class.ancestors).to include(RubyLLM::FileStore)
  end

  it 'creates its folder when missing, and knows it as local_root' do
    deep = File.join(@tmp, 'a/b/c')
    expect(described_class.new(deep).local_root).to eq(File.realpath(deep))
  end

  it 'reads the files someone else put in its folder' do
    FileUtils.mkdir_p(File.join(root, 'docs'))
    File.write(File.join(root, 'docs/guide.md'), "# Guide\n")
    expect(store.list.map(&:path)).to eq(['docs/guide.md'])
    expect(store.read('docs/guide.md')).to eq("# Guide\n")
  end

  describe 'hidden files and folders' do
    before do
      FileUtils.mkdir_p(File.join(root, '.git'))
      File.write(File.join(root, '.git/config'), 'x')
      File.write(File.join(root, '.env'), 'SECRET=1')
      FileUtils.mkdir_p(File.join(root, 'app/.cache'))
      File.write(File.join(root, 'app/.cache/blob'), 'x')
      File.write(File.join(root, 'app/visible.rb'), 'puts 1')
    end

    it 'leaves them out of list' do
      expect(store.list.map(&:path)).to eq(['app/visible.rb'])
      expect(store.list('.git')).to eq([])
    end

    it 'refuses to name them' do
      expect { store.read('.env') }.to raise_error(ArgumentError, /hidden/)
      expect { store.write('.env', 'x') }.to raise_error(ArgumentError, /hidden/)
      expect { store.write('app/.cache/new', 'x') }.to raise_error(ArgumentError, /hidden/)
      expect { store.delete('.env') }.to raise_error(ArgumentError, /hidden/)
      expect(File.read(File.join(root, '.env'))).to eq('SECRET=1')
    end
  end

  describe 'symbolic links' do
    before do
      FileUtils.mkdir_p(root)
      File.write(File.join(outside, 'canary.txt'), 'canary')
      File.symlink(outside, File.join(root, 'linked'))
      File.symlink(File.join(outside, 'canary.txt'), File.join(root, 'link.txt'))
      FileUtils.mkdir_p(File.join(root, 'inner'))
      File.write(File.join(root, 'inner/real.txt'), 'real')
      File.symlink(File.join(root, 'inner/real.txt'), File.join(root, 'inner-link.txt'))
    end

    it 'neither lists links nor what they point to' do
      expect(store.list.map(&:path)).to eq(['inner/real.txt'])
      expect(store.list('linked')).to eq([])
    end

    it 'does not read through them' do
      expect { store.read('link.txt') }.to raise_error(RubyLLM::FileNotFoundError)
      expect { store.read('linked/canary.txt') }.to raise_error(RubyLLM::FileNotFoundError)
      expect { store.read('inner-link.txt') }.to raise_error(RubyLLM::FileNotFoundError)
      expect(store['link.txt']).to be_nil
      expect(store.exist?('linked/canary.txt')).to be(false)
    end

    it 'does not write or delete through them' do
      expect { store.write('link.txt', 'overwritten') }.to raise_error(ArgumentError, /symbolic link/)
      expect { store.write('linked/canary.txt', 'overwritten') }.to raise_error(ArgumentError, /symbolic link/)
      expect { store.write('linked/new.txt', 'x') }.to raise_error(ArgumentError, /symbolic link/)
      expect(store.delete('linked/canary.txt')).to be_nil
      expect { store.delete_folder('linked') }.not_to raise_error
      expect(File.read(File.join(outside, 'canary.txt'))).to eq('canary')
      expect(Dir.children(outside)).to eq(['canary.txt'])
    end
  end

  describe 'atomic writes' do
    it 'leaves no temporary file behind' do
      20.times { |i| store.write('notes/a.txt', "version #{i}") }
      expect(Dir.children(File.join(root, 'notes'))).to eq(['a.txt'])
    end

    it 'never shows a reader a torn file' do
      big = 'a' * 4_000_000
      small = 'b' * 1000
      store.write('doc.txt', small)
      seen = []
      reader = Thread.new { 200.times { seen << store.read('doc.txt').bytesize } }
      20.times { |i| store.write('doc.txt', i.even? ? big : small) }
      reader.join
      expect(seen.uniq - [big.bytesize, small.bytesize]).to eq([])
    end
  end

  describe 'digests' do
    it 'are the sha256 of the bytes, and follow changes made behind its back' do
      store.write('a.txt', 'abc')
      expect(store.find('a.txt').digest).to eq(Digest::SHA256.hexdigest('abc'))
      File.write(File.join(root, 'a.txt'), 'abcd')
      expect(store.find('a.txt').digest).to eq(Digest::SHA256.hexdigest('abcd'))
      expect(store.list.first.digest).to eq(Digest::SHA256.hexdigest('abcd'))
    end

    it 'see a same-size change made with a new mtime' do
      store.write('a.txt', 'abc')
      store.list
      File.write(File.join(root, 'a.txt'), 'xyz')
      File.utime(Time.now + 5, Time.now + 5, File.join(root, 'a.txt'))
      expect(store.find('a.txt').digest).to eq(Digest::SHA256.hexdigest('xyz'))
    end
  end

  describe 'content types' do
    it 'come from names, and from signatures when the name does not tell' do
      store.write('scan', "%PDF-1.7\n")
      store.write('photo', "\xFF\xD8\xFF\xE0\x00\x10JFIF".b)
      store.write('deck.pptx', "PK\x03\x04".b)
      store.write('notes', "plain words\n")
      types = store.list.to_h { |f| [f.path, f.content_type] }
      expect(types).to eq(
        'deck.pptx' => 'application/vnd.openxmlformats-officedocument.presentationml.presentation',
        'notes' => 'text/plain', 'photo' => 'image/jpeg', 'scan' => 'application/pdf'
      )
    end

    it 'ignore the content_type given to write, since a folder cannot keep it' do
      expect(store.write('a.md', 'x', content_type: 'text/x-other').content_type).to eq('text/markdown')
    end
  end

  it 'has updated_at from the file' do
    file = store.write('a.txt', 'a')
    expect(file.updated_at).to be_within(5).of(Time.now)
    expect(store.find('a.txt').updated_at).to eq(File.mtime(File.join(root, 'a.txt')))
  end

  it 'counts the files toward max_bytes, including those put there by others' do
    capped = full_store(100)
    File.write(File.join(capped.local_root, 'big.bin'), 'x' * 95)
    expect { capped.write('more.txt', 'x' * 10) }.to raise_error(RubyLLM::FileStoreFullError)
    expect(capped.total_size).to eq(95)
    expect(capped.max_bytes).to eq(100)
  end

  it 'removes folders that delete_folder emptied' do
    store.write('reports/2025/q4.pdf', '%PDF')
    store.delete_folder('reports')
    expect(File.exist?(File.join(root, 'reports'))).to be(false)
  end

  it 'says why it cannot open a folder' do
    file = File.join(@tmp, 'a-file')
    File.write(file, 'x')
    expect { described_class.new(file) }.to raise_error(SystemCallError, /a-file/)
  end

  it 'checks its arguments' do
    expect { described_class.new(nil) }.to raise_error(ArgumentError, /root must be/)
    expect { described_class.new(root, max_bytes: -1) }.to raise_error(ArgumentError, /max_bytes/)
    expect { store.write('a.txt', 42) }.to raise_error(ArgumentError, /String or an IO/)
  end
end
