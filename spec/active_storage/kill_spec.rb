# frozen_string_literal: true

require_relative 'support/active_storage_helper'
require_relative 'support/machines'

# Guarantee (README: a worker killed with kill -9 mid-write): a worker
# writing through write_file is killed with SIGKILL at each point of a
# write (its blob's row committed and nothing uploaded, the upload under
# way, the file uploaded and its row not committed, the write committed),
# where a hook in the worker blocks on a pipe so the kill lands exactly
# there, and at random moments. Afterwards no row is without its blob, no
# blob of a row misses its file, every digest is its bytes; the blob and
# file the killed write left are found and removed by one call,
# RubyLLM::FileStore::ActiveStorage.purge_orphans, which removes nothing
# a row uses, and leaves no file in the service that no blob names.
#
# On PostgreSQL only (Disk and S3): write_file writes inside the store's
# lock, and there the blob's row commits on a second connection before the
# upload. On SQLite that connection would wait for the lock's own
# transaction, the one writer SQLite allows, so the row is saved in that
# transaction and a kill before it commits leaves a file no row names
# (README's limits; SQLite is one machine).
RSpec.describe RubyLLM::FileStore::ActiveStorage, 'a worker killed with kill -9' do
  skip_unless = ActiveStorageSpecApp.postgresql? ? false : 'the blob row commits aside on PostgreSQL only'
  let(:chat) { Chat.create!(title: 'Killed') }

  after { Machines.kill_all }

  # Starts a worker writing files, lets it write, kills it where +point+
  # says (see support/machine.rb) on its third write.
  def kill_at(point)
    worker, = Machines.start([[['writes', chat.id, 'w'], { 'KILL_AT' => point, 'KILL_ON' => '3' }]],
                             own_storage: false)
    reports = []
    loop do
      reports << worker.report
      break if reports.last.nil? || reports.last.start_with?('at ')
    end
    expect(reports).to eq(['wrote 0', 'wrote 1', "at #{point}"]),
                       -> { "the worker printed: #{File.read(worker.out).inspect}" }
    worker.kill!
  end

  def rows = RubyLLM::ActiveRecord::ChatFile.where(chat:).order(:path).pluck(:path, :digest)

  # Every row has its blob and the blob its file, with the row's digest,
  # and the store lists them.
  def expect_sound
    expect(Machines.broken_rows(chat)).to eq([])
    expect(store_for(Chat.find(chat.id)).list.map(&:path)).to eq(rows.map(&:first))
  end

  # What must hold after the kill, and after purge_orphans: +left+ blobs
  # for it to find (the killed write's), then none, and no row changed.
  def expect_clean_after_purge(left:)
    expect_sound
    before = rows
    expect(Machines.unattached_marked.size).to eq(left)
    expect(described_class.purge_orphans(older_than: 0)).to eq(left)
    expect([Machines.unattached_marked, Machines.unnamed_keys]).to eq([[], []]) # and no file no blob names
    expect(rows).to eq(before)
    expect_sound # nothing a row uses was removed
  end

  {
    'before_upload' => 'its blob row committed, nothing uploaded',
    'during_upload' => 'the upload under way',
    'after_upload' => 'the file uploaded, its row not committed'
  }.each do |point, what|
    it "leaves a blob purge_orphans finds when killed with #{what}", skip: skip_unless do
      kill_at(point)
      expect(rows.map(&:first)).to eq(%w[w/0.txt w/1.txt])
      expect_clean_after_purge(left: 1)
    end
  end

  it 'leaves the write whole when killed after it committed', skip: skip_unless do
    kill_at('after_commit')
    expect(rows.map(&:first)).to eq(%w[w/0.txt w/1.txt w/2.txt])
    expect_clean_after_purge(left: 0)
  end

  it 'leaves nothing broken when killed at random moments, twice', skip: skip_unless do
    2.times do |round|
      worker, = Machines.start([[['writes', chat.id, "r#{round}"]]], own_storage: false)
      expect(worker.report).to eq('wrote 0'), -> { "the worker printed: #{File.read(worker.out).inspect}" }
      sleep(rand * 0.3) # where it lands is the point: random
      worker.kill!
    end
    expect(Machines.broken_rows(chat)).to eq([])
    left = Machines.unattached_marked.size
    expect(left).to be <= 2 # one write at most per kill
    expect_clean_after_purge(left:)
  end
end
