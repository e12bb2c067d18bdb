# frozen_string_literal: true

# Runs code against ruby_llm itself, from the copies these variables name,
# one per ruby_llm line:
#
#   RUBY_LLM_SOURCE        main (2.0)
#   RUBY_LLM_1_16_SOURCE   1.16.0, the release
#   RUBY_LLM_1_9_SOURCE    1.9.0, a ruby_llm with no adapter (install_spec only)
#
# Each is a list of folders separated by ":" (File::PATH_SEPARATOR), each put
# on the load path. A folder made by spec/integration/prepare_ruby_llm stands
# for its lib/, schema/ and stubs/; a copy of ruby_llm's repository (its root
# or its lib) works too, followed by any folders with stand-ins for the gems
# it needs (see spec/integration/README.md):
#
#   RUBY_LLM_SOURCE=/work/ruby_llm/main RUBY_LLM_1_16_SOURCE=/work/ruby_llm/1.16.0 rspec spec/integration
#
# The code runs in a forked child, so the rest of the suite never sees
# ruby_llm; what the block returns comes back through Marshal.
module RubyLLMSource
  VARIABLES = { 'main' => 'RUBY_LLM_SOURCE', '1.16' => 'RUBY_LLM_1_16_SOURCE', '1.9' => 'RUBY_LLM_1_9_SOURCE' }.freeze
  # The lines the integration and acts_as_chat specs run against.
  SUPPORTED = %w[main 1.16].freeze
  # The oldest Rails each line's records (acts_as_chat) work on as a user
  # installs them, unpatched (README: "Which Rails with which ruby_llm"):
  # main preloads messages with Rails 7's Preloader.new(records:, associations:).
  OLDEST_RAILS = { 'main' => '7.0', '1.16' => '6.1' }.freeze

  module_function

  # The load path folders of the copy for +version+ (a key of VARIABLES).
  def folders(version = 'main')
    ENV.fetch(VARIABLES.fetch(version), '').split(File::PATH_SEPARATOR).reject(&:empty?).flat_map do |folder|
      next [folder] unless File.exist?(File.join(folder, 'lib/ruby_llm.rb'))

      %w[lib schema stubs].map { |part| File.join(folder, part) }.select { |path| File.directory?(path) }
    end
  end

  def available?(version = 'main') = folders(version).any?

  # The versions of +versions+ that have a copy.
  def versions(versions = SUPPORTED) = versions.select { |version| available?(version) }

  # The lines of +versions+ whose records work on Rails +rails+ (a version
  # String): the specs that use Active Record run only those, as a user can.
  def on_rails(rails, versions = SUPPORTED)
    versions.select { |version| Gem::Version.new(rails) >= Gem::Version.new(OLDEST_RAILS.fetch(version)) }
  end

  # each_version for the specs whose records run on Rails +rails+: the
  # lines that do not work there unpatched are left out, and the run says so
  # once.
  def each_version_on_rails(group, rails, &)
    left_out = SUPPORTED - on_rails(rails)
    note = left_out.map { |line| "ruby_llm #{line} needs Rails #{OLDEST_RAILS.fetch(line)}" }.join(', ')
    if !left_out.empty? && !(@rails_notes ||= []).include?(note)
      @rails_notes << note
      message = "Left out on Rails #{rails}, as a user could not run them there: #{note}"
      RSpec.configure { |config| config.before(:suite) { config.reporter.message(message) } }
    end
    each_version(group, on_rails(rails), &)
  end

  def skip_message
    "set #{VARIABLES.values_at(*SUPPORTED).join(' and ')} to loadable copies of ruby_llm (made by " \
      'spec/integration/prepare_ruby_llm; see spec/integration/README.md) to run the specs against ruby_llm'
  end

  # Defines +body+ as a context for each of +versions+ that has a copy, its
  # examples knowing the version as ruby_llm_version. With none, one
  # example says how to run them, once in the whole run.
  def each_version(group, versions = SUPPORTED, &)
    present = versions(versions)
    present.each do |version|
      group.context("on ruby_llm #{version}", ruby_llm: version) do
        let(:ruby_llm_version) { version }
        include ScriptedChat
        class_exec(&)
      end
    end
    return unless present.empty? && !@skipped

    @skipped = true
    message = skip_message
    group.it('runs against ruby_llm') { skip message }
  end

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

  # Inside a child: the options RubyLLM.chat (and an agent's model) takes
  # for the scripted server: the chat completions protocol where ruby_llm
  # has protocols (2.0; 1.16 has only that one).
  def chat_options
    options = { provider: :openai, assume_model_exists: true }
    protocols = RubyLLM::Chat.instance_method(:initialize).parameters.any? { |_, name| name == :protocol }
    protocols ? options.merge(protocol: :chat_completions) : options
  end

  # Loads ruby_llm +version+ in a child, installs the integration, and
  # returns what the block returns. An exception in the child is raised here.
  def run(version = 'main', &)
    reader, writer = IO.pipe
    [reader, writer].each(&:binmode) # Marshal data: no transcoding where Rails set Encoding.default_internal
    pid = fork { child(version, reader, writer, &) }
    writer.close
    outcome = Marshal.load(reader.read) # rubocop:disable Security/MarshalLoad -- from our own child
    Process.wait(pid)
    raise outcome[:error] if outcome[:error]

    outcome[:value]
  end

  def child(version, reader, writer)
    reader.close
    $LOAD_PATH.unshift(*folders(version))
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

  # Runs +script+ in a new Ruby with this gem and (unless +ruby_llm+ is
  # false) ruby_llm +version+ on the load path; returns what it printed
  # (stdout and stderr).
  def ruby(version, script, ruby_llm: true)
    lib = File.expand_path('../../lib', __dir__)
    paths = ruby_llm ? folders(version) : []
    IO.popen([RbConfig.ruby, *paths.flat_map { |f| ['-I', f] }, '-I', lib, '-e', script], err: %i[child out], &:read)
  end
end
