# frozen_string_literal: true

# A second process acting on the spec application's chats, for the specs of
# what holds across processes. Commands:
#
#   record_read CHAT_ID PATH DIGEST
#   read_digest CHAT_ID PATH
#   edit CHAT_ID PATH OLD NEW LOG GO   says it is ready (GO.<pid>.ready), waits
#                                      for the file GO, then edits PATH with
#                                      edit_file, logging to LOG when it tries
#                                      and when it holds the lock
#   check CHAT_ID PATH                 writes PATH, lists and searches it
#   overwrite CHAT_ID PATH COUNT GO    says it is ready, waits for the file GO,
#                                      then writes COUNT versions over
#                                      PATH-0.md .. PATH-3.md in turn
require_relative 'rails_app'

command, chat_id, path, *rest = ARGV
store = RubyLLM::FileStore::ActiveStorage.new(Chat.find(chat_id))

case command
when 'record_read'
  store.record_read(path, rest.fetch(0))
when 'read_digest'
  print store.read_digest(path).inspect
when 'edit'
  old_text, new_text, log, go = rest
  tools = RubyLLM::FileStore::Tools.for(store, tools: %i[read edit]).to_h { |tool| [tool.name, tool] }
  # Inside the lock, edit_file reads the file: log when, and take a while,
  # so the other process tries to edit meanwhile.
  store.define_singleton_method(:read) do |file|
    File.write(log, "#{Process.pid} in\n", mode: 'a')
    sleep 0.5
    bytes = super(file)
    File.write(log, "#{Process.pid} out\n", mode: 'a')
    bytes
  end
  File.write("#{go}.#{Process.pid}.ready", '')
  sleep 0.01 until File.exist?(go)
  File.write(log, "#{Process.pid} try\n", mode: 'a')
  result = tools.fetch('edit_file').call('path' => path, 'old_text' => old_text, 'new_text' => new_text)
  print result.inspect
when 'check'
  store.write(path, "needle in a booted app\n")
  found = RubyLLM::FileStore::Search.run(store, 'needle')
  print({ list: store.list.map(&:path), search: found.to_s }.inspect)
when 'overwrite'
  count, go = rest
  File.write("#{go}.#{Process.pid}.ready", '')
  sleep 0.01 until File.exist?(go)
  Integer(count).times { |n| store.write("#{path}-#{n % 4}.md", "#{Process.pid} #{n}\n") }
  print 'done'
else
  abort "unknown command #{command}"
end
