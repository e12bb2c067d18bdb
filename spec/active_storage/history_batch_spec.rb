# frozen_string_literal: true

require_relative 'support/active_storage_helper'

# Guarantee (docs/history.md, what it costs): with history on, a batch of
# changes (a staged run's copy-back through write_many) records its versions
# with a few statements for the whole batch, where they were six per file
# (the file before, its newest version, the file after, its blob, the
# insert, the versions past keep:), and still records each file's version
# holding its blob, forgetting those past keep:.
RSpec.describe RubyLLM::FileStore::ActiveStorage, 'recording a batch of versions' do
  let(:chat) { Chat.create!(title: 'Batch history') }
  let(:store) { store_for(chat, history: { keep: 2 }) }
  let(:paths) { (1..40).map { |n| "out/f#{n}.txt" } }

  # The SQL statements the block runs.
  def statements(&)
    count = 0
    counter = ->(*, payload) { count += 1 unless %w[SCHEMA TRANSACTION].include?(payload[:name]) }
    ActiveSupport::Notifications.subscribed(counter, 'sql.active_record', &)
    count
  end

  def write_all(store, round) = store.write_many(paths) { |path| "#{round} #{path}\n" }

  it 'records the versions of 40 files in a few statements, each holding its blob, past keep: forgotten' do
    plain_store = store_for(Chat.create!(title: 'Plain'))
    [store, plain_store].each { |each| [1, 2].each { |round| write_all(each, round) } }
    plain = statements { write_all(plain_store, 3) }
    with_history = statements { write_all(store, 3) }
    expect(with_history - plain).to be < 12 # one at a time: 6 per file, 240
    expect(store.versions('out/f7.txt').map { |version| store.read_version(version) })
      .to eq(["3 out/f7.txt\n", "2 out/f7.txt\n"])
    held = chat.ruby_llm_chat_file_versions.where(path: 'out/f7.txt', forgotten: false).order(:id).pluck(:blob_id)
    expect(held.last).to eq(chat.ruby_llm_chat_files.find_by(path: 'out/f7.txt').file.blob_id)
    expect(chat.ruby_llm_chat_file_versions.where(path: 'out/f7.txt', forgotten: true).count).to eq(1)
  end
end
