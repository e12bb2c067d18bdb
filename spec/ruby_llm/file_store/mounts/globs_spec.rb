# frozen_string_literal: true

# search_files' glob over a tree: the files it finds are those list_files
# finds with the same glob (which matches the full paths), whatever mount a
# file is in. A "**" in front of a mount's folders matches them too.
RSpec.describe RubyLLM::FileStore::Mounts, 'search glob' do
  let(:tree) do
    docs = RubyLLM::FileStore::Memory.new
    api = RubyLLM::FileStore::Memory.new
    deep = RubyLLM::FileStore::Memory.new
    chat = RubyLLM::FileStore::Memory.new
    { 'top.md' => chat, 'docs/readme.md' => chat, 'guide.md' => docs, 'b/howto.md' => docs, 'ref.md' => api,
      'v1/old.md' => api, 'v1/b/deep.md' => api, 'x.md' => deep, 'b/y.md' => deep,
      'q/z.md' => deep }
      .each { |path, store| store.write(path, "hit #{path}\n") }
    RubyLLM::FileStore::Mounts.new(chat, 'docs' => docs, 'docs/api' => api, 'a/x/b' => deep)
  end

  def searched(glob, path = nil)
    lines = tree.search('hit', glob:, path:, files_only: true).lines.map(&:chomp)
    lines.reject { |line| line.start_with?('[') || line == 'No matches.' }.sort
  end

  # The engine's own glob over the tree's full paths, as list_files applies it.
  def listed(glob, path = nil)
    RubyLLM::FileStores::Native.glob_filter(glob, path || '', '', tree.list(path).map(&:path)).sort
  end

  # The last ones leave several globs, some with braces of their own, and
  # a run of a thousand "**".
  ['docs/**/*.md', '**/*.md', 'docs/*/*.md', 'docs/api/**', '*/api/v1/*.md', 'a/**/b/*.md', 'a/**/*.md',
   '**/b/*.md', 'docs/**/v1/**/*.md', 'docs/{api,x}/*.md', 'a/*/b/**', 'a/**/{b,x}/**/*.{md,txt}',
   '**/{api,b}/**/*.md', 'a/**/b/*.{md,txt}', 'docs/**/v1/*.{md,txt}',
   "#{(['**'] * 1000).join('/')}/*.md"].each do |glob|
    it "finds with #{glob[0, 40]} the files whose full path it matches" do
      expect(listed(glob)).not_to be_empty
      expect(searched(glob)).to eq(listed(glob))
    end
  end

  it 'matches a glob relative to a path above the mounts' do
    expect(searched('**/v1/*.md', 'docs')).to eq(['docs/api/v1/old.md'])
    expect(searched('api/**/b/*.md', 'docs')).to eq(['docs/api/v1/b/deep.md'])
  end
end
