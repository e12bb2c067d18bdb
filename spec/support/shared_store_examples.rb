# frozen_string_literal: true

require 'digest'
require 'stringio'

# The behaviour every store shares, from the guide's "Working with the Store"
# and "Writing Your Own Store". Include with a `store` let.
RSpec.shared_examples 'a file store' do
  it 'writes a String and returns the StoredFile' do
    file = store.write('brief.md', "# Brief\n")
    expect(file).to be_a(RubyLLM::StoredFile)
    expect(file).to have_attributes(path: 'brief.md', filename: 'brief.md', byte_size: 8,
                                    content_type: 'text/markdown',
                                    digest: Digest::SHA256.hexdigest("# Brief\n"))
  end

  it 'writes an IO' do
    store.write('data.csv', StringIO.new("a,b\n1,2\n"))
    expect(store.read('data.csv')).to eq("a,b\n1,2\n")
  end

  it 'reads back the exact bytes, as a binary String' do
    bytes = (0..255).map(&:chr).join.b * 3
    store.write('blob.bin', bytes)
    read = store.read('blob.bin')
    expect(read).to eq(bytes)
    expect(read.encoding).to eq(Encoding::BINARY)
  end

  it 'lists files sorted by path, and one folder with list(folder)' do
    store.write('reports/q3.pdf', '%PDF-1.7 q3')
    store.write('brief.md', 'b')
    store.write('reports/2025/q4.pdf', '%PDF-1.7 q4')
    store.write('reportsX.txt', 'not in the folder')
    expect(store.list.map(&:path)).to eq(%w[brief.md reports/2025/q4.pdf reports/q3.pdf reportsX.txt])
    expect(store.list('reports').map(&:path)).to eq(%w[reports/2025/q4.pdf reports/q3.pdf])
    expect(store.list('./reports/').map(&:path)).to eq(%w[reports/2025/q4.pdf reports/q3.pdf])
    expect(store.list('nowhere')).to eq([])
  end

  it 'finds a file, and [] returns nil for a missing one' do
    store.write('brief.md', 'b')
    expect(store.find('brief.md').path).to eq('brief.md')
    expect(store['missing.md']).to be_nil
    expect { store.find('missing.md') }.to raise_error(RubyLLM::FileNotFoundError, /missing\.md/)
    expect { store.read('missing.md') }.to raise_error(RubyLLM::FileNotFoundError, /missing\.md/)
  end

  it 'answers exist?' do
    store.write('brief.md', 'b')
    expect(store.exist?('brief.md')).to be(true)
    expect(store.exist?('other.md')).to be(false)
  end

  it 'normalises paths: ./a//b is a/b' do
    store.write('./notes//plan.md', 'p')
    expect(store.list.map(&:path)).to eq(['notes/plan.md'])
    expect(store.read('notes/./plan.md')).to eq('p')
  end

  it 'replaces a file on a second write' do
    store.write('a.txt', 'one')
    file = store.write('a.txt', 'two!')
    expect(store.read('a.txt')).to eq('two!')
    expect(file.byte_size).to eq(4)
    expect(store.list.size).to eq(1)
  end

  it 'deletes one file and returns it, or nil when there is none' do
    store.write('a.txt', 'a')
    expect(store.delete('a.txt')&.path).to eq('a.txt')
    expect(store.delete('a.txt')).to be_nil
    expect(store['a.txt']).to be_nil
  end

  it 'deletes a folder and returns the deleted files' do
    store.write('reports/q3.pdf', '%PDF-1.7')
    store.write('reports/old/q2.pdf', '%PDF-1.6')
    store.write('keep.md', 'k')
    deleted = store.delete_folder('reports')
    expect(deleted.map(&:path).sort).to eq(%w[reports/old/q2.pdf reports/q3.pdf])
    expect(store.list.map(&:path)).to eq(['keep.md'])
  end

  it 'refuses bad paths with ArgumentError naming the path' do
    ['../etc/passwd', 'a/../../b', 'a/..', '/etc/passwd', '', "a\0b", 'a\\b'].each do |bad|
      expect { store.write(bad, 'x') }.to raise_error(ArgumentError, /not a valid file path/), bad.inspect
      expect { store[bad] }.to raise_error(ArgumentError), bad.inspect
      expect { store.read(bad) }.to raise_error(ArgumentError), bad.inspect
      expect { store.delete(bad) }.to raise_error(ArgumentError), bad.inspect
    end
  end

  it 'takes its lock reentrantly' do
    result = store.with_lock { store.with_lock { store.write('a.txt', 'a') && :done } }
    expect(result).to eq(:done)
  end

  it 'remembers what the model read, per path' do
    expect(store.read_digest('a.txt')).to be_nil
    store.record_read('./a.txt', 'abc')
    expect(store.read_digest('a.txt')).to eq('abc')
    store.record_read('a.txt', nil)
    expect(store.read_digest('a.txt')).to be_nil
  end

  it 'keeps converted text by file version' do
    file = store.write('deck.pptx', "PK\x03\x04 fake".b)
    expect(store.cached_text(file)).to be_nil
    store.cache_text(file, 'Slide 1')
    expect(store.cached_text(store.find('deck.pptx'))).to eq('Slide 1')
    changed = store.write('deck.pptx', "PK\x03\x04 changed".b)
    expect(store.cached_text(changed)).to be_nil
  end

  it 'reads text files as text' do
    store.write('notes.md', "caf\xC3\xA9 \xFF end".b)
    text = store.text('notes.md')
    expect(text.encoding).to eq(Encoding::UTF_8)
    expect(text).to eq("café \uFFFD end")
  end
end

# What stores with a folder structure share: no file where a folder is.
RSpec.shared_examples 'a store with folders' do
  it 'refuses to delete a folder with delete, and to write over one' do
    store.write('reports/q3.pdf', '%PDF-1.7')
    expect { store.delete('reports') }.to raise_error(ArgumentError, /reports is a folder/)
    expect { store.write('reports', 'x') }.to raise_error(ArgumentError, /reports is a folder/)
    expect { store.write('reports/q3.pdf/inner', 'x') }.to raise_error(ArgumentError, /goes through a file/)
    expect(store.read('reports/q3.pdf')).to eq('%PDF-1.7')
  end

  it 'refuses a write past max_bytes with FileStoreFullError and writes nothing' do
    full = full_store(10)
    full.write('a.txt', '12345')
    full.write('a.txt', '1234567890')
    expect { full.write('b.txt', 'x') }
      .to raise_error(RubyLLM::FileStoreFullError, /\AThis chat's files are full: delete or overwrite files\./)
    expect(full['b.txt']).to be_nil
    expect(full.read('a.txt')).to eq('1234567890')
  end
end
