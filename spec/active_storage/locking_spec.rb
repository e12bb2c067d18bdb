# frozen_string_literal: true

require_relative 'support/active_storage_helper'

RSpec.describe RubyLLM::FileStore::ActiveStorage, '#with_lock' do
  let(:chat) { Chat.create!(title: 'Plan') }
  let(:store) { store_for(chat) }

  it 'lets two processes edit one file at once through edit_file: the second waits, and no edit is lost' do
    file = store.write('notes/plan.md', "alpha\nbeta\n")
    store.record_read('notes/plan.md', file.digest) # the model read it, in this chat
    log = File.join(ActiveStorageSpecApp::DIR, 'edits.log')
    go = File.join(ActiveStorageSpecApp::DIR, 'edits.go')
    FileUtils.rm_f([log, go])
    workers = [%w[alpha ALPHA], %w[beta BETA]].map do |old_text, new_text|
      spawn_worker('edit', chat.id, 'notes/plan.md', old_text, new_text, log, go)
    end
    sleep 0.05 until Dir["#{go}.*.ready"].size == 2
    FileUtils.touch(go)
    results = workers.map { |pid, out| wait_worker(pid, out) }

    expect(results).to all(eq('"Edited notes/plan.md (1 replacement)."'))
    expect(store.read('notes/plan.md')).to eq("ALPHA\nBETA\n")
    events = File.readlines(log, chomp: true).map(&:split)
    expect(events.map(&:last)).to eq(%w[try try in out in out]) # both tried before the first finished
    holders = events.reject { |_, what| what == 'try' }.map(&:first)
    expect(holders.each_slice(2).map(&:uniq)).to all(have_attributes(size: 1)) # in and out by one process
  end

  it 'is reentrant in one thread, and takes turns between threads with stores of their own' do
    expect(store.with_lock { store.with_lock { store.write('a.txt', 'a') && :inner } }).to eq(:inner)
    order = Queue.new
    entered = Queue.new
    release = Queue.new
    holder = Thread.new do
      ActiveRecord::Base.connection_pool.with_connection do
        store_for(Chat.find(chat.id)).with_lock do
          order << :first_in
          entered << true
          release.pop
          order << :first_out
        end
      end
    end
    entered.pop
    second = Thread.new do
      ActiveRecord::Base.connection_pool.with_connection do
        store_for(Chat.find(chat.id)).with_lock { order << :second_in }
      end
    end
    # The second thread blocks on the chat's row (a lock wait, or the busy
    # handler's sleep), never getting in while the first holds it.
    Thread.pass until second.status == 'sleep' || !second.alive?
    expect(order.size).to eq(1)
    release << true
    [holder, second].each(&:join)
    expect(Array.new(order.size) { order.pop }).to eq(%i[first_in first_out second_in])
  end

  it 'rolls back what the block wrote when it raises, and deletes the blobs it uploaded' do
    store.write('kept.md', 'kept')
    expect do
      store.with_lock do
        store.write('kept.md', 'changed')
        store.write('new.md', 'new')
        raise 'boom'
      end
    end.to raise_error(RuntimeError, 'boom')
    expect(store.list.map(&:path)).to eq(['kept.md'])
    expect(store.read('kept.md')).to eq('kept')
    expect(blob_count).to eq(1)
    expect(stored_files.size).to eq(1)
  end
end
