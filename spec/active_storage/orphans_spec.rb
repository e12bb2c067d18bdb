# frozen_string_literal: true

require_relative 'support/active_storage_helper'

# Guarantee (README: no blob is left attached to nothing): the purge of a
# replaced blob after the commit is a few single statements, tried again
# when SQLite answers "database is locked"; and purge_orphans (also
# `bin/rails ruby_llm:file_store:purge_orphans`) removes what is left, only
# the store's own blobs, attached to nothing and older than the grace
# period. The old build purged with a read then a write in one transaction
# and only logged the failure: each of 14 runs of 2 processes x 40 writes
# on SQLite left 3 to 27 blobs attached to nothing, with their files.
RSpec.describe RubyLLM::FileStore::ActiveStorage, 'orphan blobs' do
  let(:chat) { Chat.create!(title: 'Orphans') }
  let(:store) { store_for(chat) }

  def unattached = ActiveStorage::Blob.where.not(id: ActiveStorage::Attachment.select(:blob_id))

  it 'leaves every blob attached when two processes overwrite the same files 40 times each' do
    go = File.join(ActiveStorageSpecApp::DIR, "go-#{SecureRandom.hex(4)}")
    workers = Array.new(2) { spawn_worker('overwrite', chat.id, 'shared', 40, go) }
    sleep 0.05 until Dir["#{go}.*.ready"].size == 2
    File.write(go, '')
    expect(workers.map { |pid, out| wait_worker(pid, out) }).to eq(%w[done done])
    expect(unattached.count).to eq(0)
    expect(store.list.map(&:path)).to eq(%w[shared-0.md shared-1.md shared-2.md shared-3.md])
    expect([ActiveStorage::Blob.count, stored_files.size]).to eq([4, 4])
  end

  it "purges the store's own old blobs that nothing uses, and nothing else" do
    store.write('kept.md', "kept\n")
    orphan = upload_orphan('old.md', 2 * 3600)
    young = upload_orphan('young.md', 60)
    app_blob = ActiveStorage::Blob.create_and_upload!(io: StringIO.new('app'), filename: 'app.txt')
    app_blob.update_columns(created_at: 3.days.ago)
    expect(described_class.purge_orphans).to eq(1)
    expect(ActiveStorage::Blob.exists?(orphan.id)).to be(false)
    expect(ActiveStorage::Blob.where(id: [young.id, app_blob.id]).count).to eq(2)
    expect(store.read('kept.md')).to eq("kept\n")
    expect(stored_files.size).to eq(3)
    expect(described_class.purge_orphans(older_than: 0)).to eq(1) # the young one
    expect { described_class.purge_orphans(older_than: -1) }.to raise_error(ArgumentError, /older_than/)
  end

  # The old build inserted a batch's blob rows with their metadata as a
  # JSON String, which the column's coder stored as {}: unmarked, so
  # purge_orphans never found them.
  it 'finds the blobs a batch (write_many) wrote: they are marked as the store\'s' do
    saved, unsaved, = store.write_many(%w[a.md b.md]) { |path| "#{path}\n" }
    expect([saved.map(&:path), unsaved]).to eq([%w[a.md b.md], []])
    expect(ActiveStorage::Blob.order(:id).map(&:metadata))
      .to all(include(described_class::Blobs::MARK => true, 'identified' => true, 'analyzed' => true))
    row = RubyLLM::ActiveRecord::ChatFile.find_by!(path: 'a.md')
    ActiveStorage::Attachment.where(record: row).delete_all
    row.delete
    expect(described_class.purge_orphans(older_than: 0)).to eq(1)
    expect([store.read('b.md'), stored_files.size]).to eq(["b.md\n", 1])
  end

  # In a new process that boots the app as Rails does (Rails first, then the
  # gem and its railtie), as bin/rails would.
  it 'runs as the rake task ruby_llm:file_store:purge_orphans' do
    upload_orphan('old.md', 2 * 3600)
    script = "require #{File.expand_path('support/rails_app', __dir__).dump}; require 'rake'; " \
             "Rails.application.load_tasks; Rake::Task['ruby_llm:file_store:purge_orphans'].invoke"
    out, status = Open3.capture2e({ 'OLDER_THAN' => '60' }, RbConfig.ruby, '-e', script)
    expect([out, status.success?]).to eq(["Purged 1 orphan blob.\n", true])
    expect([ActiveStorage::Blob.count, stored_files]).to eq([0, []])
  end

  # A blob the store uploaded and never attached (as a purge that failed
  # leaves one), +age+ seconds old.
  def upload_orphan(path, age)
    store.write(path, "#{path}\n")
    row = RubyLLM::ActiveRecord::ChatFile.find_by!(path:)
    blob = row.file.blob
    ActiveStorage::Attachment.where(record: row).delete_all
    row.delete
    blob.update_columns(created_at: Time.current - age)
    blob
  end
end
