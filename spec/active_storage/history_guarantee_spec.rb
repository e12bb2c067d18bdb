# frozen_string_literal: true

require_relative 'support/active_storage_helper'

# Guarantee (README, "The history loses no version"): two processes (three
# threads each on PostgreSQL; one on SQLite, whose one writer is the chat's
# lock) write, move, delete and rewind one chat's files with history, 40
# steps a thread: every write is a version of its path, and every file is
# its newest version.
RSpec.describe 'Guarantee: a chat history in Active Storage loses no version' do
  let(:chat) { Chat.create!(title: 'Churn') }
  let(:worker) { File.expand_path('support/history_worker.rb', __dir__) }

  it 'keeps every write of two processes changing and rewinding one chat, each file its newest version' do
    threads = ActiveStorageSpecApp.postgresql? ? 3 : 1
    go = File.join(ActiveStorageSpecApp::DIR, "history-go-#{SecureRandom.hex(4)}")
    workers = Array.new(2) do |n|
      out = File.join(ActiveStorageSpecApp::DIR, "history-worker-#{SecureRandom.hex(4)}.out")
      [Process.spawn(RbConfig.ruby, worker, chat.id.to_s, "p#{n}", threads.to_s, '40', go, out:,
                                                                                           err: %i[child out]), out]
    end
    sleep 0.05 until Dir["#{go}.*.ready"].size == 2
    File.write(go, '')
    written = workers.flat_map { |pid, out| JSON.parse(wait_worker(pid, out)) }

    store = store_for(Chat.find(chat.id), history: true)
    kept = Hash.new { |hash, path| hash[path] = store.versions(path).map(&:digest) }
    expect(written.reject { |path, digest| kept[path].include?(digest) }).to eq([])
    expect(written.size).to be > 20
    store.list.each do |file|
      expect(store.versions(file.path).first.digest).to eq(file.digest), "#{file.path} is not its newest version"
    end
  end
end
