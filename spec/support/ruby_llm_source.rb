# frozen_string_literal: true

# Runs code against ruby_llm itself, from the copy RUBY_LLM_SOURCE names:
# folders separated by ":" (File::PATH_SEPARATOR), each put on the load path,
# its lib/ when it has one. A copy of ruby_llm's repository (its root or its
# lib) works, followed by any folder with stand-ins for gems it needs that
# are not installed:
#
#   RUBY_LLM_SOURCE=/work/ruby_llm_local:/work/ruby_llm_local/stubs rspec spec/integration
#
# The code runs in a forked child, so the rest of the suite never sees
# ruby_llm; what the block returns comes back through Marshal.
module RubyLLMSource
  module_function

  def folders
    ENV.fetch('RUBY_LLM_SOURCE', '').split(File::PATH_SEPARATOR).reject(&:empty?).map do |folder|
      File.exist?(File.join(folder, 'lib/ruby_llm.rb')) ? File.join(folder, 'lib') : folder
    end
  end

  def available? = folders.any?

  def skip_message
    'set RUBY_LLM_SOURCE to a loadable copy of ruby_llm (its root or lib folder, then any folder of stand-in ' \
      'gems, separated by ":") to run the ruby_llm integration spec'
  end

  # Loads ruby_llm in a child, installs the integration, and returns what
  # the block returns. An exception in the child is raised here.
  # Inside a child: starts the scripted OpenAI-compatible server with
  # +script+, points ruby_llm at it, yields the server, and stops it.
  def with_scripted_server(script)
    server = ScriptedOpenAIServer.start(script)
    RubyLLM.configure do |config|
      config.openai_api_key = 'test-key'
      config.openai_api_base = server.url
      config.max_retries = 0
    end
    yield server
  ensure
    server&.stop
  end

  def run(&)
    reader, writer = IO.pipe
    [reader, writer].each(&:binmode) # Marshal data: no transcoding where Rails set Encoding.default_internal
    pid = fork { child(reader, writer, &) }
    writer.close
    outcome = Marshal.load(reader.read) # rubocop:disable Security/MarshalLoad -- from our own child
    Process.wait(pid)
    raise outcome[:error] if outcome[:error]

    outcome[:value]
  end

  def child(reader, writer)
    reader.close
    $LOAD_PATH.unshift(*folders)
    require 'ruby_llm'
    RubyLLM::FileStores::Native.install!
    outcome = { value: yield }
  rescue Exception => e # rubocop:disable Lint/RescueException -- report everything to the parent
    outcome = { error: "#{e.class}: #{e.message}\n#{e.backtrace.first(15).join("\n")}" }
  ensure
    writer.write(Marshal.dump(outcome))
    writer.close
    exit!(0)
  end
end
