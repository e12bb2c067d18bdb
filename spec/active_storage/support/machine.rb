# frozen_string_literal: true

# A worker as on another machine, for spec/active_storage/several_machines_spec.rb
# and kill_spec.rb: the parent gives it a temporary folder of its own
# (TMPDIR, and RUBY_LLM_AS_DIR: its own Disk root, so only PostgreSQL and the
# S3 bucket are shared) and two pipes, fd 3 to read and fd 4 to write.
# It boots the spec application, writes "ready" to fd 4 and waits for
# fd 3's end of file: the parent closes it when every worker is ready, so
# they start together. Then, through the real tools on one chat:
#
#   appends CHAT_ID NAME COUNT  COUNT times: an edit_file append of
#                               "NAME n" to log.md (reading it again when
#                               another worker changed it since) and a
#                               write_file of NAME/n.txt; prints a JSON
#                               report of what failed
#   writes CHAT_ID NAME         write_file of NAME/n.txt (128 KB each),
#                               n = 0, 1, ... until killed, saying "wrote n"
#                               on fd 4 after each
#
# With KILL_AT=POINT (before_upload, during_upload, after_upload or
# after_commit) and KILL_ON=N, the N-th write stops at that point: the
# worker writes "at POINT" to fd 4 and blocks reading fd 5, which the
# parent never writes, until the parent kills it with SIGKILL.
require 'json'
require_relative 'rails_app'

go = IO.new(3)
report = IO.new(4)
report.sync = true

command, chat_id, name, count = ARGV
store = RubyLLM::FileStore::ActiveStorage.new(Chat.find(chat_id))
tools = RubyLLM::FileStore::Tools.for(store, tools: %i[read write edit]).to_h { |tool| [tool.name, tool] }

# The kill points, on the service this worker uploads to: the blob's row
# committed and nothing uploaded yet, the file part sent, the file
# uploaded and the file's row not committed; after_commit is checked by
# the writing loop once write_file returned.
kill_at = ENV.fetch('KILL_AT', nil)
kill_on = Integer(ENV.fetch('KILL_ON', '1'))
uploads = 0
stop = lambda do |point|
  next unless point == kill_at && uploads == kill_on

  report.puts("at #{point}")
  IO.new(5).read # blocks: the parent kills us here
  abort 'the parent closed fd 5 instead of killing'
end
if kill_at
  service = ActiveStorage::Blob.service
  service.define_singleton_method(:upload) do |key, io, **options|
    uploads += 1
    stop.call('before_upload')
    reads = 0
    %i[read readpartial].each do |reader|
      io.define_singleton_method(reader) do |*args|
        reads += 1
        stop.call('during_upload') if reads == 2 # the first part is on its way
        super(*args)
      end
    end
    super(key, io, **options)
    stop.call('after_upload')
  end
end

report.puts('ready')
go.read # the end of file: everyone is ready

def ok?(result) = result.is_a?(String) && !result.start_with?('{')

case command
when 'appends'
  failures = []
  retries = 0
  Integer(count).times do |n|
    loop do
      tools.fetch('read_file').call('path' => 'log.md')
      result = tools.fetch('edit_file').call('path' => 'log.md', 'old_text' => "END\n",
                                             'new_text' => "#{name} #{n}\nEND\n")
      break if ok?(result) && result.start_with?('Edited')

      # Another worker changed the log between our read and our edit: the
      # tool asks to read it again, which is no lost edit.
      if result.is_a?(Hash) && result[:error].to_s.include?('changed since you read it')
        retries += 1
        next
      end
      failures << "edit #{n}: #{result.inspect}"
      break
    end
    result = tools.fetch('write_file').call('path' => "#{name}/#{n}.txt", 'content' => "#{name} wrote #{n}\n")
    failures << "write #{n}: #{result.inspect}" unless ok?(result) && result.start_with?('Created')
  rescue StandardError => e
    failures << "#{n}: #{e.class}: #{e.message}"
  end
  print JSON.generate(failures:, retries:)
when 'writes'
  content = "#{name} line\n" * (128 * 1024 / "#{name} line\n".bytesize)
  n = 0
  loop do
    result = tools.fetch('write_file').call('path' => "#{name}/#{n}.txt", 'content' => content)
    abort "write #{n}: #{result.inspect}" unless ok?(result)
    stop.call('after_commit')
    report.puts("wrote #{n}")
    n += 1
  end
else
  abort "unknown command #{command}"
end
