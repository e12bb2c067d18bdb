# frozen_string_literal: true

# Run by spec/guarantees/long_json_result_spec.rb in a fresh Ruby: a real
# ruby_llm chat (from RUBY_LLM_SOURCE) whose tool returns a JSON string of
# the given megabytes, with a Memory file store ("store") or without one
# ("alone"), against a scripted OpenAI-compatible server. Prints one JSON
# line: the peak resident memory (VmHWM, MB), the saved file's path and
# size, and the size of the last request's tool message.
#
#   RUBY_LLM_SOURCE=... ruby spec/scripts/long_json_result.rb store 60

require 'json'
require_relative '../support/ruby_llm_source'
require_relative '../support/scripted_openai_server'

mode, megabytes = ARGV
$LOAD_PATH.unshift(*RubyLLMSource.folders)
$LOAD_PATH.unshift(File.expand_path('../../lib', __dir__))
require 'ruby_llm'
require 'ruby_llm/file_stores/native'

def peak_mb = File.read('/proc/self/status')[/VmHWM:\s+(\d+)/, 1].to_i / 1024

# The tool's result: a JSON array of rows, made once.
def export_json(megabytes)
  row = '{"id":1234567,"name":"item name","tags":["a","b","c"],"price":12.5,"active":true}'
  json = +'['
  json << row << ',' while json.bytesize < (megabytes.to_i << 20)
  json << row << ']'
end

EXPORT = export_json(megabytes).freeze

export = Class.new(RubyLLM::Tool) do
  def self.name = 'Export'
  description 'Exports every order'
  def execute = EXPORT
end

script = [ScriptedOpenAIServer.tool_calls(['export', {}]), ScriptedOpenAIServer.text('Exported.')]
RubyLLMSource.with_scripted_server(script) do |server|
  chat = RubyLLM.chat(model: 'gpt-4.1-mini', provider: :openai, protocol: :chat_completions,
                      assume_model_exists: true)
  chat = chat.with_file_store(:memory) if mode == 'store'
  chat.with_tools(export).ask('Export the orders')
  saved = mode == 'store' ? chat.file_store.list.find { |file| file.path.start_with?('results/') } : nil
  tool_message = server.requests.last['messages'].find { |m| m['role'] == 'tool' }
  puts JSON.generate(peak_mb:, path: saved&.path, saved_bytes: saved&.byte_size, json_bytes: EXPORT.bytesize,
                     saved_same: saved ? chat.file_store.read(saved.path) == EXPORT : nil,
                     sent_chars: tool_message['content'].size)
end
