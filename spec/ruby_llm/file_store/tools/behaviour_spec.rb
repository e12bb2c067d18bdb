# frozen_string_literal: true

# The tools over a tree of stores with read-only mounts: a change to a file
# of a read-only store is refused as read-only before anything else (not
# "read it first", which would send the model to read a file it cannot
# change), and a patch that touches one changes nothing.
RSpec.describe RubyLLM::FileStore::Tools::Behaviour do
  include_context 'in a temporary folder'

  let(:chat) { RubyLLM::FileStore::Memory.new }
  let(:tree) do
    RubyLLM::NativeDir.new(File.join(@tmp, 'handbook')).write('policy.md', "policy\n")
    kept = RubyLLM::FileStore::Memory.new.tap { |store| store.write('m.md', "kept\n") }
    RubyLLM::FileStore::Mounts.new(chat, 'handbook' => RubyLLM::NativeDir.new(File.join(@tmp, 'handbook'),
                                                                              read_only: true),
                                         'kept' => kept.read_only_view, 'scratch' => :memory)
  end
  let(:tools) { RubyLLM::FileStore::Tools.for(tree, tools: %i[read write edit delete move patch]) }

  def call(name, args) = tools.find { |tool| tool.name == name }.call(args)
  def read_only(path) = { error: RubyLLM::FileStore::ReadOnlyError.new(path).message }
  def patch(*lines) = { 'patch' => ['*** Begin Patch', *lines, '*** End Patch', ''].join("\n") }

  %w[handbook/policy.md kept/m.md].each do |path|
    it "refuses a change to #{path}, unread, as read-only" do
      expect(call('write_file', 'path' => path, 'content' => 'x')).to eq(read_only(path))
      expect(call('edit_file', 'path' => path, 'old_text' => 'e', 'new_text' => 'x')).to eq(read_only(path))
      expect(call('apply_patch', patch("*** Delete File: #{path}"))).to eq(read_only(path))
      expect(call('apply_patch', patch("*** Update File: #{path}", '@@', '-x', '+y'))).to eq(read_only(path))
    end
  end

  it 'changes nothing for a patch whose last file is in a read-only store' do
    chat.write('s.md', "s\n")
    call('read_file', 'path' => 's.md')
    moved = call('apply_patch', patch('*** Update File: s.md', '*** Move to: handbook/s.md', '@@', '-s', '+t'))
    added = call('apply_patch', patch('*** Add File: new.md', '+n', '*** Add File: kept/n.md', '+n'))
    expect([moved, added]).to eq([read_only('handbook/s.md'), read_only('kept/n.md')])
    expect(chat.list.map(&:path)).to eq(['s.md'])
    expect(chat.read('s.md')).to eq("s\n")
  end

  it 'refuses to delete a mount point, empty, without advice for a tool the model lacks' do
    expect(call('delete_file', 'path' => 'scratch'))
      .to eq(error: 'scratch is a folder where a store is mounted, not a file: delete the files inside it')
  end

  it 'refuses a patch that adds or moves a file onto an empty mount point, changing nothing' do
    chat.write('s.md', "s\n")
    call('read_file', 'path' => 's.md')
    moved = call('apply_patch', patch('*** Update File: s.md', '*** Move to: scratch', '@@', '-s', '+t'))
    added = call('apply_patch', patch('*** Add File: n.md', '+n', '*** Add File: scratch', '+d'))
    folder = ->(what) { { error: "*** #{what}: scratch is a folder; the patch changes files. Nothing was changed." } }
    expect([moved, added]).to eq([folder['Move to'], folder['Add']])
    expect([chat.list.map(&:path), chat.read('s.md')]).to eq([['s.md'], "s\n"])
  end
end
