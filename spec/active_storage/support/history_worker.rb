# frozen_string_literal: true

# A process changing and rewinding one chat's files with history on, for
# spec/active_storage/history_guarantee_spec.rb:
#
#   ruby history_worker.rb CHAT_ID LABEL THREADS STEPS GO
#
# says it is ready (GO.<pid>.ready), waits for the file GO, then runs
# THREADS threads of STEPS steps each, writing bytes no other writes, moving,
# deleting and now and then rewinding to a checkpoint it took; prints the
# JSON list of [path, digest] of every write it made.
require_relative 'rails_app'
require 'digest'
require 'json'

chat_id, label, threads, steps, go = ARGV
PATHS = %w[a.md b.md c.md dir/d.md].freeze

def move(store, path)
  store.move(path, PATHS.sample)
rescue RubyLLM::FileNotFoundError, RubyLLM::FileExistsError, ArgumentError
  nil
end

def churn(store, name, steps)
  written = []
  checkpoint = store.checkpoint
  count = 0
  steps.times do
    path = PATHS.sample
    case rand(10)
    when 0..5
      bytes = "#{name} #{count += 1}\n"
      store.write(path, bytes)
      written << [path, Digest::SHA256.hexdigest(bytes)]
    when 6 then move(store, path)
    when 7 then store.delete(path)
    when 8 then checkpoint = store.checkpoint
    else store.rewind(checkpoint)
    end
  end
  written
end

chat = Chat.find(chat_id) # before the others start: only the store's own calls meet their writes
File.write("#{go}.#{Process.pid}.ready", '')
sleep 0.01 until File.exist?(go)
written = Array.new(Integer(threads)) do |n|
  Thread.new do
    ActiveRecord::Base.connection_pool.with_connection do
      store = RubyLLM::FileStore::ActiveStorage.new(chat, history: { keep: 1_000_000 })
      churn(store, "#{label}-#{n}", Integer(steps))
    end
  end
end.flat_map(&:value)
print JSON.generate(written)
