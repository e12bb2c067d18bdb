# frozen_string_literal: true

# Run by spec/guarantees/many_lines_spec.rb in a fresh Ruby: a real ruby_llm
# chat (the line given, "main" or "1.16", from RUBY_LLM_SOURCE or
# RUBY_LLM_1_16_SOURCE) with a Memory file store, against a scripted
# OpenAI-compatible server, where the model writes 1,000 newlines, grows
# them with one replace_all edit to +megabytes+ MB of empty lines, and
# reads 10 of them. Prints one JSON line: the answer, the read_file result's
# start, the seconds ask took and the peak resident memory (VmHWM, MB).
#
#   RUBY_LLM_SOURCE=... ruby spec/scripts/many_lines_chat.rb main 200

require 'json'
require_relative '../support/ruby_llm_source'
require_relative '../support/scripted_openai_server'

version, megabytes = ARGV
$LOAD_PATH.unshift(*RubyLLMSource.folders(version))
$LOAD_PATH.unshift(File.expand_path('../../lib', __dir__))
require 'ruby_llm'
require 'ruby_llm/file_stores/native'

def peak_mb = File.read('/proc/self/status')[/VmHWM:\s+(\d+)/, 1].to_i / 1024

s = ScriptedOpenAIServer
growth = (megabytes.to_i << 20) / 1000
script = [s.tool_calls(['write_file', { path: 'lines.txt', content: "\n" * 1000 }]),
          s.tool_calls(['edit_file', { path: 'lines.txt', old_text: "\n", new_text: "\n" * growth,
                                       replace_all: true }]),
          s.tool_calls(['read_file', { path: 'lines.txt', offset: 1, limit: 10 }]),
          s.text('Read it.')]
RubyLLMSource.with_scripted_server(script) do |server|
  chat = RubyLLM.chat(model: 'gpt-4.1-mini', **RubyLLMSource.chat_options).with_file_store(:memory)
  started = Process.clock_gettime(Process::CLOCK_MONOTONIC)
  answer = chat.ask('Make the file and read it').content
  seconds = Process.clock_gettime(Process::CLOCK_MONOTONIC) - started
  read = server.requests.last['messages'].reverse.find { |m| m['role'] == 'tool' }
  puts JSON.generate(answer:, read: read['content'].to_s[0, 300], bytes: chat.file_store['lines.txt'].byte_size,
                     seconds: seconds.round(2), peak_mb:)
end
