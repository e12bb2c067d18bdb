# frozen_string_literal: true

# Runs the blocks DocsSnippets hands it (JSON on standard input) and prints
# what each gave (JSON). Loads the gem, and ruby_llm when it is on the load
# path, once; each block runs in a forked child, in a temporary folder of its
# own, with the scripted OpenAI-compatible server as every chat's model.
require 'English'
require 'json'
require 'stringio'
require 'tmpdir'

begin
  require 'ruby_llm'
rescue LoadError
  nil # the snippets that need ruby_llm then fail, saying so
end
require 'ruby_llm/file_stores/native'
require_relative '../support/scripted_openai_server'
require_relative '../support/ruby_llm_source'

# Every chat a snippet makes talks to the scripted server through chat
# completions, whatever model it names (ruby_llm main would pick OpenAI's
# Responses API for a model in its registry).
module DocsSnippetChats
  def chat(**options) = super(**RubyLLMSource.chat_options, **options)
end

blocks = JSON.parse($stdin.read)
results = blocks.to_h do |block|
  reader, writer = IO.pipe
  pid = fork do
    reader.close
    $stdout = $stderr = StringIO.new
    ok = Dir.mktmpdir('docs-snippet') do |dir|
      Dir.chdir(dir)
      if defined?(RubyLLM::Chat)
        RubyLLM.singleton_class.prepend(DocsSnippetChats)
        server = ScriptedOpenAIServer.start([])
        RubyLLM.configure do |config|
          config.openai_api_key = 'test-key'
          config.openai_api_base = server.url
          config.max_retries = 0
        end
      end
      TOPLEVEL_BINDING.dup.eval(block['code'], File.join('/docs', block['file']), block['line'])
      true
    rescue Exception => e # rubocop:disable Lint/RescueException -- a snippet that raises anything fails
      $stdout.puts "#{e.class}: #{e.message}", *Array(e.backtrace).first(8)
      false
    ensure
      server&.stop
    end
    writer.write(JSON.generate('ok' => ok, 'output' => $stdout.string[-4000..] || $stdout.string))
    writer.close
    exit!(0)
  end
  writer.close
  answer = reader.read
  Process.wait(pid)
  ended = { 'ok' => false, 'output' => "the child ended with #{$CHILD_STATUS.inspect}" }
  [block['where'], answer.empty? ? ended : JSON.parse(answer)]
end
$stdout.write(JSON.generate(results))
