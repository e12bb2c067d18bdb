# frozen_string_literal: true

# apply_patch is all or nothing when a later path goes through a file or
# stands where a folder is (issue #38, item 6): every new path is placed in
# the tree as the patch leaves it before the first write. Include with a
# `store` let, on every kind of store (a tree of stores too). The build
# before it wrote the earlier files, then refused the later one.
RSpec.shared_examples 'apply_patch placing every path before writing' do
  let(:path_tools) { RubyLLM::FileStore::Tools.for(store, tools: %i[read patch]).to_h { |t| [t.name, t] } }

  def read_for_patch(*paths) = paths.each { |path| path_tools.fetch('read_file').call('path' => path) }
  def patch_body(body) = path_tools.fetch('apply_patch').call('patch' => "*** Begin Patch\n#{body}*** End Patch\n")
  def files_now = store.list.to_h { |file| [file.path, store.read(file.path)] }

  before do
    store.write('notes.md', "notes\n")
    store.write('zz', "zz\n")
    store.write('x.txt', "x\n")
    store.write('a.txt', "a\n")
    read_for_patch('notes.md', 'zz', 'x.txt', 'a.txt')
  end

  def refused(body)
    before = files_now
    result = patch_body(body)
    expect(result).to be_a(Hash)
    expect(files_now).to eq(before)
    result[:error]
  end

  it 'refuses a new file through a file the store has, after a delete or an update, writing nothing' do
    expect(refused("*** Delete File: notes.md\n*** Add File: zz/x.txt\n+x\n"))
      .to eq('*** Add File: zz/x.txt goes through zz, which is a file, not a folder. Choose another path, or ' \
             'delete or move zz earlier in the patch. Nothing was changed.')
    expect(refused("*** Update File: x.txt\n@@\n-x\n+y\n*** Add File: a.txt/inner.txt\n+i\n"))
      .to start_with('*** Add File: a.txt/inner.txt goes through a.txt, which is a file, not a folder.')
    expect(refused("*** Update File: x.txt\n@@\n-x\n+y\n*** Update File: notes.md\n*** Move to: zz/deep/n.md\n"))
      .to start_with('*** Move to: zz/deep/n.md goes through zz, which is a file, not a folder.')
  end

  it 'refuses a new file through, or where, a file or folder the patch itself makes, writing nothing' do
    expect(refused("*** Add File: a\n+a\n*** Add File: a/b\n+b\n"))
      .to start_with('*** Add File: a/b goes through a, which is a file this patch makes, not a folder.')
    expect(refused("*** Update File: x.txt\n@@\n-x\n+y\n*** Add File: d/e.txt\n+e\n*** Add File: d\n+d\n"))
      .to eq('*** Add File: d is a folder once this patch makes d/e.txt; the patch changes files. Choose another ' \
             'path. Nothing was changed.')
    expect(refused("*** Update File: x.txt\n*** Move to: x.txt/inside.txt\n"))
      .to start_with('*** Move to: x.txt/inside.txt goes through x.txt, which is a file, not a folder.')
  end

  it 'lets a later file use a path an earlier step cleared' do
    result = patch_body("*** Delete File: zz\n*** Add File: zz/x.txt\n+x\n" \
                        "*** Update File: a.txt\n*** Move to: moved.txt\n*** Add File: a.txt/inner.txt\n+i\n")
    expect(result).to eq('Deleted zz, added zz/x.txt, moved a.txt to moved.txt, added a.txt/inner.txt.')
    expect(files_now).to include('a.txt/inner.txt' => "i\n", 'moved.txt' => "a\n", 'zz/x.txt' => "x\n")
    expect(files_now.keys).not_to include('zz', 'a.txt')
  end
end
