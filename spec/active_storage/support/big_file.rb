# frozen_string_literal: true

# One step on a big file in its own process, for spec/active_storage/big_files_spec.rb
# and rake bench: boots the spec application (same database and service as
# the parent), resets the peak resident memory (/proc/self/clear_refs), runs
# the step, and prints one JSON line with what it gave, the seconds it took
# and the growth of the peak resident memory over the resident memory before
# it (MB). Steps:
#
#   write CHAT_ID PATH SOURCE          store.write(PATH, File.open(SOURCE))
#   read CHAT_ID PATH OFFSET LIMIT     read_file through the tools
#   staged CHAT_ID PATH COPY           run_code (shell) copies PATH to COPY, changed
require_relative 'rails_app'
require 'json'

def resident_kb(field) = File.read('/proc/self/status')[/#{field}:\s+(\d+)/, 1].to_i

step, chat_id, path, *rest = ARGV
store = RubyLLM::FileStore::ActiveStorage.new(Chat.find(chat_id))
tools = RubyLLM::FileStore::Tools.for(store, tools: %i[read]).to_h { |tool| [tool.name, tool] }
runner = if step == 'staged'
           cgroup = RubyLLM::FileStore::CodeExecution::Cgroup.available&.dig(:memory)
           limit = cgroup ? {} : { memory_limit: :per_process }
           RubyLLM::FileStore::CodeExecution.new(store, python: false, ruby: false, shell: true, timeout: 120,
                                                        file_size: 1 << 30, **limit)
         end
GC.start
File.write('/proc/self/clear_refs', '5')
before = resident_kb('VmRSS')
started = Process.clock_gettime(Process::CLOCK_MONOTONIC)
outcome = case step
          when 'write'
            file = File.open(rest.fetch(0), 'rb') { |io| store.write(path, io) }
            { digest: file.digest, byte_size: file.byte_size }
          when 'read'
            result = tools.fetch('read_file').call('path' => path, 'offset' => Integer(rest.fetch(0)),
                                                   'limit' => Integer(rest.fetch(1)))
            { head: result.to_s[0, 200], tail: result.to_s[-200..] }
          when 'staged'
            copy = rest.fetch(0)
            run = runner.run(language: 'shell', code: "sed 's/^line/LINE/' #{path} > #{copy} && wc -l < #{copy}",
                             files: [path])
            { stdout: run.stdout, stderr: run.stderr, created: run.created,
              unsaved: run.unsaved_files, copy_digest: store[copy]&.digest }
          else abort "unknown step #{step}"
          end
seconds = Process.clock_gettime(Process::CLOCK_MONOTONIC) - started
growth_mb = ((resident_kb('VmHWM') - before) / 1024.0).round(1)
puts JSON.generate(outcome.merge(seconds: seconds.round(3), growth_mb:))
