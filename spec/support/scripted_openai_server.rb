# frozen_string_literal: true

require 'json'
require 'socket'

# An OpenAI-compatible chat completions server on 127.0.0.1 that answers
# from a script and records what it receives, for driving ruby_llm without
# a network. Each POST to /v1/chat/completions gets the next answer of the
# script: a Hash (an assistant message) or a lambda given the request body.
#
#   server = ScriptedOpenAIServer.start([
#     ScriptedOpenAIServer.tool_calls(['read_file', { path: 'a.md' }]),
#     ScriptedOpenAIServer.text('Done.')
#   ])
#   RubyLLM.configure { |c| c.openai_api_base = server.url }
#   server.requests  # => [{ "model" => ..., "messages" => [...] }, ...]
class ScriptedOpenAIServer
  attr_reader :requests

  def self.start(script) = new(script).tap(&:start)

  # An assistant message that answers with text.
  def self.text(content) = { 'role' => 'assistant', 'content' => content }

  # An assistant message that calls tools: pairs of [name, arguments].
  def self.tool_calls(*calls)
    { 'role' => 'assistant', 'content' => nil,
      'tool_calls' => calls.each_with_index.map do |(name, arguments), index|
        { 'id' => "call_#{name}_#{index}_#{rand(1 << 30)}", 'type' => 'function',
          'function' => { 'name' => name, 'arguments' => JSON.generate(arguments) } }
      end }
  end

  def initialize(script)
    @script = script.dup
    @requests = []
    @lock = Mutex.new
  end

  def start
    @server = TCPServer.new('127.0.0.1', 0)
    @thread = Thread.new { loop { serve(@server.accept) } }
    self
  end

  def url = "http://127.0.0.1:#{@server.addr[1]}/v1"

  def stop
    @thread&.kill
    @server&.close
  end

  private

  def serve(client)
    body = read_request(client)
    request = JSON.parse(body)
    answer = @lock.synchronize do
      @requests << request
      step = @script.shift || self.class.text('(the script has ended)')
      step.respond_to?(:call) ? step.call(request) : step
    end
    respond(client, 200, completion(request, answer))
  rescue StandardError => e
    respond(client, 500, { 'error' => { 'message' => "#{e.class}: #{e.message}" } })
  ensure
    client.close
  end

  def read_request(client)
    length = 0
    while (line = client.gets) && line != "\r\n"
      length = Regexp.last_match(1).to_i if line =~ /\Acontent-length:\s*(\d+)/i
    end
    client.read(length).to_s
  end

  def completion(request, message)
    { 'id' => "chatcmpl-#{@requests.size}", 'object' => 'chat.completion', 'created' => Time.now.to_i,
      'model' => request['model'],
      'choices' => [{ 'index' => 0, 'message' => message,
                      'finish_reason' => message['tool_calls'] ? 'tool_calls' : 'stop' }],
      'usage' => { 'prompt_tokens' => 10, 'completion_tokens' => 5, 'total_tokens' => 15 } }
  end

  def respond(client, status, payload)
    body = JSON.generate(payload)
    client.write("HTTP/1.1 #{status} #{status == 200 ? 'OK' : 'Error'}\r\nContent-Type: application/json\r\n" \
                 "Content-Length: #{body.bytesize}\r\nConnection: close\r\n\r\n#{body}")
  end
end
