# frozen_string_literal: true

# A tree's search is merged from what each store found, as data, and
# written once by the engine: never read back from a store's text. So the
# tree shows what one store holding the same files at the same full paths
# would show, whatever the engine's notes say and whatever the names hold.
RSpec.describe RubyLLM::FileStore::Mounts, 'search, merged as data' do
  # The same files as a tree (an empty default store, the files under
  # "logs/" in a mount) and as one store.
  def both(files)
    logs = RubyLLM::FileStore::Memory.new
    flat = RubyLLM::FileStore::Memory.new
    files.each do |path, content|
      logs.write(path, content)
      flat.write("logs/#{path}", content)
    end
    [described_class.new(RubyLLM::FileStore::Memory.new, 'logs' => logs), flat]
  end

  let(:files) do
    { 'a.md' => "needle one\nplain\nneedle two\n", 'b, c.txt' => "x\0needle", 'scan.pdf' => '%PDF-1.7',
      'd:1:e.md' => "needle in a name with a line number\n", 'f.md' => "plain\nneedle three\n" }
  end

  [{}, { context: 1 }, { files_only: true }, { max_matches: 2 }, { max_chars: 760 },
   { glob: '*.md' }, { glob: 'logs/d*' }].each do |options|
    it "shows what one store with the same files shows (#{options.inspect})" do
      tree, flat = both(files)
      expect(tree.search('needle', **options)).to eq(flat.search('needle', **options))
    end
  end

  it 'names a skipped file whose name holds ", " as one file, under its full path' do
    tree, = both('b, c.txt' => "x\0needle", 'z.md' => "needle\n")
    expect(tree.search('needle')).to eq("logs/z.md:1:needle\n" \
                                        "Skipped 1 binary file: logs/b, c.txt. It has no text to search.\n")
  end

  it 'answers "No matches." in a folder that holds only a mount, when the glob finds nothing there' do
    deep = RubyLLM::FileStore::Memory.new
    deep.write('q.md', "needle\n")
    tree = described_class.new(RubyLLM::FileStore::Memory.new, 'a/x/b' => deep)
    expect(tree.list('a').map(&:path)).to eq(['a/x/b/q.md'])
    expect(tree.search('needle', path: 'a', glob: 'zzz/*.md')).to eq("No matches.\n")
    expect(tree.search('needle', path: 'a', glob: 'x/b/*.md')).to eq("a/x/b/q.md:1:needle\n")
  end

  it 'does not name in its notes a file of the default store that a mount hides' do
    chat = RubyLLM::FileStore::Memory.new
    chat.write('logs/hidden.txt', "x\0needle")
    chat.write('top.md', "needle\n")
    logs = RubyLLM::FileStore::Memory.new
    logs.write('k.md', "needle\n")
    tree = described_class.new(chat, 'logs' => logs)
    expect(tree.search('needle')).to eq("logs/k.md:1:needle\ntop.md:1:needle\n")
  end

  # A mount whose store the deadline stops inside a file it streams (as
  # Active Storage streams a big blob): the note counts the files searched
  # before it, those the glob kept, not every file of the other stores.
  it 'counts, when the time runs out, the files searched, not the files the stores hold' do
    slow = Class.new(RubyLLM::FileStore::Memory) do
      def texts_for_search(files, stop:)
        files.map do |file|
          bytes = read(file.path)
          source = Object.new
          source.define_singleton_method(:each_chunk) do |&block|
            next unless block.call(bytes[0, 6])

            sleep 0.01 until stop.call # the search's own deadline
            block.call(bytes[6..])
          end
          [file.path, source]
        end
      end
    end.new
    slow.write('big.log', "line 1 needle\nline 2 needle\n")
    chat = RubyLLM::FileStore::Memory.new
    chat.write('a.md', "needle\n")
    %w[b.txt c.txt d.txt].each { |path| chat.write(path, "needle\n") }
    tree = described_class.new(chat, 'logs' => slow)
    out = tree.search('needle', glob: '*.{md,log}', timeout: 0.5)
    expect(out).to eq("a.md:1:needle\n[Stopped: the search ran out of time at the start of logs/big.log, after 1 " \
                      'file before it. Read the rest of that file with read_file from offset 1; to reach the files ' \
                      "after it, narrow the search with path or glob.]\n")
  end
end
