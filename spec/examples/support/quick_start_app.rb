# frozen_string_literal: true

require_relative 'example_app'
require_relative '../../docs/snippets'

# README.md's Quick start, followed in a fresh app that `rails new --minimal
# --skip-bundle` makes: its steps are read from the README's text (the
# framework requires to un-comment, the storage service line, the storage.yml,
# the commands, each Ruby file by its "# app/..." line, the console steps) and
# done as written, in development mode. What CI must do otherwise, and only
# that, is named in CI_ONLY.
class QuickStartApp < ExampleApp
  README = File.join(ROOT, 'README.md')
  # What CI does that the Quick start does not say, and why.
  CI_ONLY = [
    'the Gemfile lists the frameworks Debian installs, not the rails meta gem, puma or sprockets (not installed ' \
    'in CI), and takes the two gems `bundle add` would add from the checkout and ../shared/vendor',
    'without sprockets and listen, the asset pipeline\'s require, settings and initializer and the evented ' \
    'file watcher are taken out',
    'config/initializers/scripted_model.rb points OpenAI at the scripted server (chat completions)'
  ].freeze

  def self.quick_start = File.read(README)[/^## Quick start\n(.*?)^## /m, 1]

  def initialize(dir, ruby_llm_folders) # rubocop:disable Lint/MissingSuper -- a new app, not the example's copy
    @dir = dir
    @app = File.join(dir, 'app')
    @gems = VendorGems.make(ruby_llm_folders, File.join(dir, 'gems'))
    @log = +''
    @gem_path = gem_folders
    @text = self.class.quick_start
  end

  # rails new, then every step of the Quick start but the console's.
  def install!(api_base)
    new_app
    step_one
    commands
    ruby_files.each { |path, code| write(path, code) }
    write('config/initializers/scripted_model.rb', scripted_model(api_base))
    Dir.children(File.join(@app, 'db/migrate')).sort
  end

  # The Quick start's console steps, in bin/rails runner, with +pdf+ as
  # contract-v2.pdf in the app's folder.
  def ask!(pdf)
    FileUtils.cp(pdf, File.join(@app, 'contract-v2.pdf'))
    write('quick_start_console.rb', console_code)
    run('bin/rails', 'runner', 'quick_start_console.rb')
  end

  # The paths of the last chat's files, in a new process.
  def files_of_last_chat
    code = 'puts JSON.generate(ContractReviewer.find(Chat.last.id).file_store.list.map(&:path))'
    output = run('bin/rails', 'runner', code)
    JSON.parse(output.lines.last)
  end

  # The Ruby blocks of the Quick start that hold app files, by path.
  def ruby_files
    blocks.filter_map { |code| code[%r{\A# (app/\S+\.rb)\n}] && code }.flat_map do |code|
      code.split(%r{^(?=# app/\S+\.rb$)}).map { |part| [part[%r{\A# (app/\S+\.rb)}, 1], part] }
    end
  end

  def console_code = blocks.reject { |code| code.start_with?('# app/') }.last

  private

  def blocks = DocsSnippets.blocks_of('README.md', @text).map(&:code)

  def env
    super.merge('RAILS_ENV' => 'development', 'DATABASE_PATH' => nil, 'STORAGE_ROOT' => nil)
  end

  def new_app
    output, status = Open3.capture2e('rails', 'new', @app, '--minimal', '--skip-bundle', '--skip-git', chdir: @dir)
    @log << "$ rails new app --minimal --skip-bundle --skip-git\n#{output}"
    raise "rails new failed:\n#{output}" unless status.success?

    write('Gemfile', gemfile)
    without_missing_gems
  end

  # Step 1: the requires to un-comment, the service line, config/storage.yml.
  def step_one
    application = read('config/application.rb')
    @text.scan(/`(require "[^"]+")`/).flatten.each do |line|
      raise "#{line} is not commented out in the new app" unless application.sub!(/^# #{Regexp.escape(line)}$/, line)
    end
    service = @text[/`(config\.active_storage\.service = :\w+)`/, 1]
    application.sub!(/^( *)class Application < Rails::Application\n/) { |line| "#{line}#{line[/\A */]}  #{service}\n" }
    write('config/application.rb', application)
    write('config/storage.yml', @text[/```yaml\n(.*?)^ *```/m, 1].gsub(/^ {3}/, ''))
  end

  # Step 2's commands as written; `bundle add` is the Gemfile made above.
  def commands
    @text[/```sh\n(.*?)^ *```/m, 1].lines.map { |line| line.sub(/#.*/, '').strip }.reject(&:empty?).each do |line|
      words = line.split
      words = [self.class.bundle, 'install', '--local'] if words.first(2) == %w[bundle add]
      run(*words)
    end
  end

  def gemfile
    <<~RUBY
      source 'https://rubygems.org'

      gem 'activejob'
      gem 'activerecord'
      gem 'activestorage'
      gem 'railties'
      gem 'sqlite3'
      gem 'ruby_llm-file_stores-native', path: #{ROOT.dump}
      path(#{@gems.dump}) { gem 'ruby_llm' }
    RUBY
  end

  def without_missing_gems
    write('config/application.rb', read('config/application.rb').gsub(/^require "sprockets.*\n/, ''))
    Dir[File.join(@app, 'config/environments/*.rb')].each do |file|
      File.write(file, File.read(file).gsub(/^\s*config\.(assets\.|file_watcher = ActiveSupport::Evented).*\n/, ''))
    end
    FileUtils.rm_f(File.join(@app, 'config/initializers/assets.rb'))
  end

  def scripted_model(api_base)
    <<~RUBY
      # CI only: the model is the scripted OpenAI-compatible server.
      RubyLLM.configure do |config|
        config.openai_api_key = 'test-key'
        config.openai_api_base = #{api_base.dump}
        config.openai_protocol = :chat_completions if config.respond_to?(:openai_protocol=)
        config.max_retries = 0
      end
    RUBY
  end

  def read(path) = File.read(File.join(@app, path))

  def write(path, text)
    FileUtils.mkdir_p(File.dirname(File.join(@app, path)))
    File.write(File.join(@app, path), text)
  end
end
