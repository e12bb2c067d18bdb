# frozen_string_literal: true

require_relative 'support/active_storage_helper'

# Guarantee (README: a path of any valid length is a file on every database):
# paths may be 4,000 bytes, and PostgreSQL's btree index row holds at most
# 2,704, so the unique index holds path_digest (the path's SHA-256). Before
# it, write_file at a 3,009-byte path raised PG::ProgramLimitExceeded out of
# the tool. And no database error escapes a tool: it is { error: }.
RSpec.describe RubyLLM::FileStore::ActiveStorage, 'with long paths' do
  let(:chat) { Chat.create!(title: 'Long paths') }
  let(:store) { store_for(chat) }
  let(:tools) { tools_for(store) }

  # Random names, so PostgreSQL cannot compress the index row below its limit.
  def long_path(names = 16, extension = '.md')
    "#{Array.new(names) { SecureRandom.alphanumeric(248) }.join('/')}#{extension}"
  end

  def error_of(result) = result.is_a?(Hash) ? result[:error] : nil

  it 'writes, reads, lists, edits and deletes a file at a 4,000-byte path through the tools' do
    path = long_path
    expect(path.bytesize).to be_between(3_980, 4_000)
    expect(error_of(tools.fetch('write_file').call('path' => path, 'content' => "# Long\n"))).to be_nil
    expect(tools.fetch('read_file').call('path' => path).to_s).to include('# Long')
    edited = tools.fetch('edit_file').call('path' => path, 'old_text' => 'Long', 'new_text' => 'Longer')
    expect(error_of(edited)).to be_nil
    expect(store_for(Chat.find(chat.id)).read(path)).to eq("# Longer\n")
    expect(store.list.map(&:path)).to eq([path])
    rows = RubyLLM::ActiveRecord::ChatFile.where(chat_id: chat.id).to_a
    expect(rows.size).to eq(1)
    row = rows.first
    expect(row.path_digest).to eq(Digest::SHA256.hexdigest(path))
    expect(error_of(tools.fetch('delete_file').call('path' => path))).to be_nil
    expect(store.list).to eq([])
  end

  it 'keeps two long paths that differ only at the end apart, and one row per path' do
    first = long_path(15, '/a.md')
    second = first.sub(%r{/a\.md\z}, '/b.md')
    store.write(first, "a\n")
    store.write(second, "b\n")
    store.write(first, "a again\n")
    expect([store.read(first), store.read(second)]).to eq(["a again\n", "b\n"])
    expect(chat.ruby_llm_chat_files.count).to eq(2)
    row = { chat:, owner: nil, path: second, content_type: 'text/plain', byte_size: 1 }
    user = User.create!
    RubyLLM::ActiveRecord::ChatFile.create!(row.merge(owner: user))
    expect { RubyLLM::ActiveRecord::ChatFile.create!(row.merge(owner: user)) }
      .to raise_error(ActiveRecord::RecordNotUnique)
  end

  it 'never lets a database error out of a tool: a chat deleted under its store gets { error: }' do
    store.write('notes.md', "# Notes\n")
    tools.fetch('read_file').call('path' => 'notes.md')
    Chat.where(id: chat.id).delete_all
    results = [tools.fetch('write_file').call('path' => 'new.md', 'content' => "x\n"),
               tools.fetch('edit_file').call('path' => 'notes.md', 'old_text' => 'Notes', 'new_text' => 'N'),
               tools.fetch('delete_file').call('path' => 'notes.md')]
    failed = a_string_including('database or storage failed', 'ActiveRecord::RecordNotFound')
    expect(results).to all(include(error: failed))
  end
end
