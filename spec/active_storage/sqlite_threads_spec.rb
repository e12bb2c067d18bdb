# frozen_string_literal: true

require_relative 'support/active_storage_helper'

# Guarantee (the guide: SQLite and threads): 4 threads of one process, each
# with a store of its own on one chat, as Puma's threads serving one chat,
# edit its files through the tools for 20 s (RUBY_LLM_SQLITE_THREADS_SECONDS):
# each round reads log.md, appends a line with edit_file and writes a file of
# its own with write_file. No tool answers an error ("changed since you read
# it" is answered by reading again, as a model would), and no append is lost.
#
# bin/test-active-storage's SQLite DATABASE_URL names no timeout, as many
# apps' do: there Rails 8 sets no busy handler and Rails 7 none either, so the
# store's own (ChatLock::SqliteWait) is what waits: on Rails 8.1 with sqlite3
# 2.9 (the sid leg) and 7.2 with 1.7 (Debian 13). Where SQLite keeps its
# rollback journal (Rails 6.1's default; Rails 7.1 and later use WAL), a read
# outside the chat's lock fails while a write commits, so the guide's advice
# there is one thread per process: Debian 12's leg says so and leaves it out.
# On PostgreSQL the lock is a row lock, which the other specs cover.
RSpec.describe RubyLLM::FileStore::ActiveStorage, 'threads on SQLite' do
  seconds = Float(ENV.fetch('RUBY_LLM_SQLITE_THREADS_SECONDS', '20'))
  threads = 4
  journal = ActiveRecord::Base.connection.select_value('PRAGMA journal_mode') unless ActiveStorageSpecApp.postgresql?
  left_out = if ActiveStorageSpecApp.postgresql?
               'SQLite only: PostgreSQL locks the row'
             elsif journal != 'wal'
               "SQLite in #{journal} journal mode (Rails #{Rails.version}'s default): a read outside the chat's lock " \
                 'fails while a write commits; the guide says one thread per process before Rails 8'
             else
               false
             end

  def ok?(result) = !(result.is_a?(Hash) && result.key?(:error))

  # One thread's rounds until +deadline+: its appends' count and what failed.
  def rounds(chat_id, name, deadline)
    ActiveRecord::Base.connection_pool.with_connection do
      tools = tools_for(store_for(Chat.find(chat_id)))
      appended = 0
      failures = []
      while Process.clock_gettime(Process::CLOCK_MONOTONIC) < deadline && failures.empty?
        read = tools.fetch('read_file').call('path' => 'log.md')
        edit = tools.fetch('edit_file').call('path' => 'log.md', 'old_text' => "END\n",
                                             'new_text' => "#{name} #{appended}\nEND\n")
        appended += 1 if ok?(edit)
        retry_edit = edit.is_a?(Hash) && edit[:error].to_s.include?('changed since you read it')
        write = tools.fetch('write_file').call('path' => "#{name}/#{appended}.txt", 'content' => "#{name}\n")
        failures.concat([['read_file', read], ['edit_file', edit], ['write_file', write]]
          .reject { |tool, result| ok?(result) || (tool == 'edit_file' && retry_edit) })
      end
      [appended, failures]
    end
  end

  it "answers no error, database is locked or other, with #{threads} threads on one chat for #{seconds} s",
     skip: left_out do
    chat = Chat.create!(title: 'Threads')
    store_for(chat).write('log.md', "END\n")
    deadline = Process.clock_gettime(Process::CLOCK_MONOTONIC) + seconds
    results = Array.new(threads) { |n| Thread.new { rounds(chat.id, "t#{n}", deadline) } }.map(&:value)

    puts "\n  #{threads} threads, #{seconds} s on Rails #{Rails.version}, sqlite3 #{SQLite3::VERSION}: " \
         "#{results.sum(&:first)} appends (#{results.map(&:first).join(', ')})"
    expect(results.flat_map(&:last)).to eq([])
    expect(results.map(&:first)).to all(be_positive)
    lines = store_for(Chat.find(chat.id)).read('log.md').lines(chomp: true)
    expect(lines.last).to eq('END')
    results.each_with_index do |(appended, _), n|
      expect(lines.grep(/\At#{n} /)).to eq(Array.new(appended) { |i| "t#{n} #{i}" }) # each in its order, none lost
    end
  end
end
