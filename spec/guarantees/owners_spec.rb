# frozen_string_literal: true

# Guarantee: owners share files safely (Memory here; the Active Storage
# store's examples are in spec/active_storage/owner_spec.rb, run by
# bin/test-active-storage). Through each owner's tools: deleting follows the
# rule writing does (an owner changes only their own files, so a shared
# file is refused, not deleted for everyone), and what one owner's model
# read never lets another owner's model change a file it did not read.
RSpec.describe 'Guarantee: owners share files safely', :native do
  let(:store) { RubyLLM::FileStore::Memory.new }
  let(:ada) { Struct.new(:id).new(1) }
  let(:bob) { Struct.new(:id).new(2) }

  def tools_for(view)
    RubyLLM::FileStore::Tools.for(view, tools: %i[read write edit delete]).to_h { |tool| [tool.name, tool] }
  end

  def call(view, name, **args) = tools_for(view).fetch(name).call(args.transform_keys(&:to_s))

  it "refuses an owner's delete_file on a shared file, which stays for everyone; their own copy goes" do
    store.write('brief.md', "for everyone\n")
    adas = store.for_owner(ada)
    call(adas, 'read_file', path: 'brief.md')
    expect(call(adas, 'delete_file', path: 'brief.md'))
      .to eq(error: 'brief.md is shared with everyone in this chat, so you cannot delete it. You can replace it ' \
                    'with your own version with write_file; that leaves the shared file to the others.')
    expect([store.read('brief.md'), store.for_owner(bob).read('brief.md'), adas.read('brief.md')])
      .to all(eq("for everyone\n"))
    call(adas, 'write_file', path: 'brief.md', content: "Ada's\n")
    expect(call(adas, 'delete_file', path: 'brief.md')).to eq('Deleted brief.md.')
    expect([store.read('brief.md'), adas.read('brief.md')]).to all(eq("for everyone\n"))
  end

  it "keeps reads per owner: Ada's read does not let Bob edit the shared file" do
    store.write('brief.md', "total: 5\n")
    call(store.for_owner(ada), 'read_file', path: 'brief.md')
    expect(call(store.for_owner(bob), 'edit_file', path: 'brief.md', old_text: '5', new_text: '6'))
      .to eq(error: 'You have not read brief.md. Read it with read_file first.')
  end

  it 'deletes only the owner\'s files with delete_folder' do
    store.write('notes/shared.md', 'x')
    adas = store.for_owner(ada)
    adas.write('notes/mine.md', 'y')
    expect(adas.delete_folder('notes').map(&:path)).to eq(['notes/mine.md'])
    expect(store.list.map(&:path)).to eq(['notes/shared.md'])
  end
end
