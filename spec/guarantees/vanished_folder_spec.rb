# frozen_string_literal: true

require_relative 'guarantee_helpers'

# Guarantee: a NativeDir whose folder is removed keeps working. It lists
# nothing while the folder is gone, its next write makes the folder again
# (as NativeDir.new does), and once the folder is back, made by anyone, it
# works on that folder: no call raises Errno::ENOENT to the host.
RSpec.describe 'Guarantee: a store whose folder is removed recovers', :native do
  around do |example|
    Dir.mktmpdir do |dir|
      @root = File.join(dir, 'store')
      example.run
    end
  end

  let(:store) { RubyLLM::NativeDir.new(@root) }
  let(:tools) { RubyLLM::FileStore::Tools.for(store).to_h { |t| [t.name, t] } }

  before { store.write('a.txt', "a\n") }

  it 'lists nothing while the folder is gone, and write_file makes it again' do
    FileUtils.rm_rf(@root)
    expect(tools['list_files'].call({})).to eq('There are no files in the store.')
    expect(tools['search_files'].call({ 'pattern' => 'a' })).to eq("No matches.\n")
    expect(tools['read_file'].call({ 'path' => 'a.txt' })).to eq(error: 'a.txt does not exist')
    expect(tools['write_file'].call({ 'path' => 'b/c.txt', 'content' => "c\n" })).to start_with('Created b/c.txt')
    expect(File.read(File.join(@root, 'b/c.txt'))).to eq("c\n")
    expect(store.list.map(&:path)).to eq(['b/c.txt'])
    store.with_lock { expect(store.delete('b/c.txt').path).to eq('b/c.txt') }
  end

  it 'works on the folder made again by someone else' do
    FileUtils.rm_rf(@root)
    FileUtils.mkdir_p(@root)
    File.write(File.join(@root, 'd.txt'), "d\n")
    expect(store.list.map(&:path)).to eq(['d.txt'])
    expect(tools['read_file'].call({ 'path' => 'd.txt' })).to eq("d\n")
    expect(tools['edit_file'].call({ 'path' => 'd.txt', 'old_text' => 'd', 'new_text' => 'e' }))
      .to eq('Edited d.txt (1 replacement).')
    expect(File.read(File.join(@root, 'd.txt'))).to eq("e\n")
  end
end
