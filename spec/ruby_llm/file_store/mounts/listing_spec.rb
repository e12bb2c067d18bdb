# frozen_string_literal: true

# list_files over a tree: a mount with no files yet still shows, as an
# empty folder, so the model knows the folder is there to write into.
RSpec.describe RubyLLM::FileStore::Mounts, 'listing' do
  let(:chat) { RubyLLM::FileStore::Memory.new }
  let(:tree) { described_class.new(chat, 'scratch' => :memory, 'docs' => :memory, 'docs/api' => :memory) }
  let(:list_files) { RubyLLM::FileStore::Tools.for(tree, tools: [:read]).find { |tool| tool.name == 'list_files' } }

  it 'names the mounts with no files in a note, at the root and above them' do
    expect(list_files.call({})).to eq("There are no files in the store.\n[Empty folders: docs/, docs/api/, scratch/]\n")
    tree.write('docs/guide.md', "g\n")
    expect(list_files.call({})).to eq("docs/guide.md (text/markdown, 2 bytes)\n[Empty folders: docs/api/, scratch/]\n")
    expect(list_files.call('path' => 'docs')).to eq("docs/guide.md (text/markdown, 2 bytes)\n" \
                                                    "[An empty folder: docs/api/]\n")
    expect(tree.listing('docs').empty).to eq(['docs/api'])
  end

  it 'says nothing of a mount once it has a file, nor of the one listed' do
    %w[scratch/a.md docs/b.md docs/api/c.md].each { |path| tree.write(path, 'x') }
    expect(list_files.call({}).lines.last).to eq("scratch/a.md (text/markdown, 1 byte)\n")
    expect(described_class.new(chat, 'scratch' => :memory).listing('scratch').notes).to eq([])
    expect(chat.listing.empty).to be_nil
  end

  it 'leaves out, with a note, a mounted file whose full path is too deep to name, and never shows it' do
    deep = RubyLLM::FileStore::Memory.new
    inner = "#{Array.new(RubyLLM::FileStores::Native::MAX_PATH_DEPTH - 1) { |i| "p#{i}" }.join('/')}/f.md"
    deep.write(inner, "needle\n")
    deep.write('near.md', "needle\n")
    tree = described_class.new(chat, 'm/n' => deep)
    tools = RubyLLM::FileStore::Tools.for(tree, tools: [:read]).to_h { |tool| [tool.name, tool] }
    listed = tools['list_files'].call({})
    expect(listed.lines.first).to eq("m/n/near.md (text/markdown, 7 bytes)\n")
    expect(listed).to include('[Left out 1 folder deeper than a store path reaches (64 names): m/n/p0/p1/')
    expect(tools['search_files'].call('pattern' => 'needle')).to eq("m/n/near.md:1:needle\n")
    expect(tree.list.map(&:path)).to eq(['m/n/near.md'])
  end
end
