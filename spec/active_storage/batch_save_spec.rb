# frozen_string_literal: true

require_relative 'support/active_storage_helper'
require_relative '../ruby_llm/file_store/code_execution/code_execution_helper'

# Guarantee (README: a staged run's files are saved in batches, within the
# run's time limit): write_many saves a batch of up to 500 files in one
# transaction with a few statements, where the old copy-back wrote each file
# on its own (its lock, its transaction, a dozen queries: 2,000 small files
# took 38 s on SQLite, 3,000 took 32 s on PostgreSQL), and what is not saved
# before the deadline is named unsaved, with the reason.
RSpec.describe RubyLLM::FileStore::ActiveStorage, 'saving many files' do
  include CodeExecutionHelper

  let(:chat) { Chat.create!(title: 'Batches') }
  let(:store) { store_for(chat) }

  # The SQL statements the block runs, and its value.
  def statements(&)
    count = 0
    counter = ->(*, payload) { count += 1 unless %w[SCHEMA TRANSACTION].include?(payload[:name]) }
    value = ActiveSupport::Notifications.subscribed(counter, 'sql.active_record', &)
    [count, value]
  end

  it "saves the 2,000 files a staged run made in a few batches, and the run's result names them" do
    problem = CodeExecutionHelper.sandbox_problem
    next Prerequisites.missing(self, "no sandbox here: #{problem}") if problem

    store.write('data/in.csv', "a,b\n")
    # A limit far past the save's time on a loaded machine: this is about batches, not the deadline.
    runner = runner_for(store, python: false, ruby: false, shell: true, timeout: 600)
    code = 'mkdir -p out && for i in $(seq 1 2000); do echo "row $i" > out/f$i.txt; done; echo "c,d" >> data/in.csv'
    count, result = statements { runner.run(language: 'shell', code:, files: ['data']) }
    expect(result.unsaved_files).to eq([])
    expect(result.created.size).to eq(2_000)
    expect(result.changed).to eq(['data/in.csv'])
    expect(count).to be < 400 # one write at a time ran about 12 per file: 24,000
    expect(store.list.size).to eq(2_001)
    expect([store.read('out/f1999.txt'), store.read('data/in.csv')]).to eq(["row 1999\n", "a,b\nc,d\n"])
    expect([ActiveStorage::Blob.count, ActiveStorage::Attachment.count, stored_files.size]).to eq([2_001] * 3)
  end

  # Issue #38, 5: the deadline is looked at before each file's upload (the
  # old build saved a first batch of 500 whatever the time).
  it 'starts no file once the deadline passed, naming every one as unsaved, with the reason' do
    paths = (1..1_200).map { |n| "out/f#{n}.txt" }
    past = Process.clock_gettime(Process::CLOCK_MONOTONIC) - 1
    saved, unsaved, error = store.write_many(paths, deadline: past) { |path| "#{path}\n" }
    expect(saved).to eq([])
    expect(unsaved).to eq(paths)
    expect(error).to include('time limit ran out')
    expect([store.list, ActiveStorage::Blob.count, stored_files]).to eq([[], 0, []])
  end

  it 'stops uploading when the deadline passes during a batch, saving the files sent before it' do
    paths = (1..1_200).map { |n| "out/f#{n}.txt" }
    # Room for reading the batch and two uploads; the third lasts past it.
    deadline = Process.clock_gettime(Process::CLOCK_MONOTONIC) + 5
    uploads = 0
    allow(ActiveStorage::Blob.service).to receive(:upload).and_wrap_original do |upload, *args, **options|
      uploads += 1
      sleep(0.01) while uploads == 3 && Process.clock_gettime(Process::CLOCK_MONOTONIC) <= deadline
      upload.call(*args, **options)
    end
    saved, unsaved, error = store.write_many(paths, deadline:) { |path| "#{path}\n" }
    expect(saved.map(&:path)).to eq(paths.first(3))
    expect(unsaved).to eq(paths.drop(3))
    expect(error).to include('time limit ran out')
    expect([ActiveStorage::Blob.count, stored_files.size]).to eq([3, 3])
  end

  it 'refuses, as write does, a file where a folder is, inside a file, or past max_bytes, and saves the rest' do
    full = store_for(chat, max_bytes: 100)
    full.write('notes.md', "n\n")
    full.write('docs/a.md', "a\n")
    paths = %w[docs notes.md/x.md ok.md big.md after.md]
    content = { 'big.md' => 'x' * 95 }
    saved, unsaved, error = full.write_many(paths) { |path| content.fetch(path, "#{path}\n") }
    expect(saved.map(&:path)).to eq(%w[ok.md after.md])
    expect(unsaved).to eq(%w[docs notes.md/x.md big.md])
    expect(error).to eq('docs is a folder, not a file')
    expect(full.list.map(&:path)).to eq(%w[after.md docs/a.md notes.md ok.md])
    expect(stored_files.size).to eq(4)
  end

  it 'replaces files in place: the row keeps what the model read, the old blob is purged unless shared' do
    message = Message.create!(chat:)
    message.attachments.attach(io: StringIO.new("shared\n"), filename: 'shared.md', content_type: 'text/markdown')
    store.keep_blob('shared.md', message.attachments.first.blob)
    store.write('plan.md', "v1\n")
    store.record_read('plan.md', 'read-digest')
    saved, unsaved, = store.write_many(%w[plan.md shared.md]) { |path| "new #{path}\n" }
    expect([saved.size, unsaved]).to eq([2, []])
    expect([store.read('plan.md'), store.read('shared.md')]).to eq(["new plan.md\n", "new shared.md\n"])
    expect(store_for(Chat.find(chat.id)).read_digest('plan.md')).to eq('read-digest')
    expect(message.reload.attachments.first.download).to eq("shared\n")
    expect([ActiveStorage::Blob.count, stored_files.size]).to eq([3, 3]) # two files' blobs and the message's
  end

  it 'leaves nothing when the transaction around it rolls back' do
    ActiveRecord::Base.transaction do
      store.write_many(%w[a.md b.md]) { |path| "#{path}\n" }
      raise ActiveRecord::Rollback
    end
    expect([store.list, ActiveStorage::Blob.count, stored_files]).to eq([[], 0, []])
  end
end
