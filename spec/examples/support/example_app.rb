# frozen_string_literal: true

require 'fileutils'
require 'json'
require 'open3'
require 'rbconfig'
require 'timeout'
require_relative 'vendor_gems'

# The example app (examples/rails_app) copied to a temporary folder and run
# there as its README says: bundle install --local, ruby_llm's and this gem's
# install generators, db:migrate, then rails runner, in production mode, with
# a SQLite file database and a Disk service in the folder. ruby_llm comes
# from path gems made of a ruby_llm copy's load path (VendorGems).
class ExampleApp
  SOURCE = File.expand_path('../../../examples/rails_app', __dir__)
  ROOT = File.expand_path('../../..', __dir__)
  STORY = File.expand_path('review_story.rb', __dir__)
  # Each command's bound: a hung boot fails the example instead of the run.
  TIMEOUT = 120
  MEMORY_CAP = 4 << 30
  LEFT_BY_A_RUN = %w[Gemfile.lock .bundle db/migrate db/*.sqlite3 db/schema.rb log/*.log tmp/* storage/*
                     app/models/{chat,message,model,tool_call}.rb config/initializers/ruby_llm.rb].freeze

  attr_reader :dir, :log

  # The newest Active Record installed: the Rails the app's Bundler picks.
  def self.rails_version = Gem::Specification.find_all_by_name('activerecord').map(&:version).max.to_s

  # Bundler's command: bundle (Debian 12's bundler package), or Ruby 3.3's
  # own, which Debian 13 names bundle3.3; nil when there is none.
  def self.bundle
    names = ['bundle', "bundle#{RbConfig::CONFIG['ruby_version'][/\A\d+\.\d+/]}"]
    names.find { |name| system(name, '--version', out: File::NULL, err: File::NULL) }
  end

  def initialize(dir, ruby_llm_folders)
    @dir = dir
    @app = File.join(dir, 'app')
    @gems = VendorGems.make(ruby_llm_folders, File.join(dir, 'gems'))
    @log = +''
    FileUtils.cp_r(SOURCE, @app)
    # What a run of the app in place left (its .gitignore): the copy starts as committed.
    FileUtils.rm_rf(LEFT_BY_A_RUN.flat_map { |pattern| Dir.glob(File.join(@app, pattern)) })
    pin_json
    @gem_path = gem_folders
  end

  # What the quick start says, in the app: returns the migrations it made.
  def install!
    run(self.class.bundle, 'install', '--local')
    run('bin/rails', 'generate', 'ruby_llm:install', env: { 'RAILS_ENV' => 'development' })
    run('bin/rails', 'generate', 'ruby_llm:file_store:install', env: { 'RAILS_ENV' => 'development' })
    run('bin/rails', 'db:migrate')
    Dir.children(File.join(@app, 'db/migrate')).sort
  end

  # One step of review_story.rb, pointed at +api_base+; returns its facts.
  def story(api_base, *args)
    output = run('bin/rails', 'runner', STORY, *args, env: { 'OPENAI_API_BASE' => api_base })
    JSON.parse(output.lines.reverse.find { |line| line.start_with?('{') } || '{}', symbolize_names: true)
  end

  private

  def env
    { 'BUNDLE_GEMFILE' => File.join(@app, 'Gemfile'), 'BUNDLE_APP_CONFIG' => File.join(@app, '.bundle'),
      'RUBY_LLM_GEMS' => @gems, 'FILE_STORES_NATIVE_ROOT' => ROOT, 'RAILS_ENV' => 'production',
      'SECRET_KEY_BASE' => 'example-app-spec', 'OPENAI_API_KEY' => 'test-key',
      'DATABASE_PATH' => File.join(dir, 'production.sqlite3'), 'STORAGE_ROOT' => File.join(dir, 'storage'),
      'RUBYLIB' => nil, 'RUBYOPT' => nil, 'BUNDLE_PATH' => nil, 'BUNDLE_WITHOUT' => nil, 'GEM_PATH' => @gem_path }
  end

  # Runs a command in the app; raises with its output unless it succeeds.
  def run(*command, env: {})
    output, status = capture(command, self.env.merge(env))
    @log << "$ #{command.join(' ')}\n#{output}"
    raise "#{command.join(' ')} failed (#{status.inspect}):\n#{output}" unless status.success?

    output
  end

  def capture(command, env)
    Open3.popen2e(env, *command, chdir: @app, rlimit_as: MEMORY_CAP, pgroup: true) do |stdin, out, thread|
      stdin.close
      reader = Thread.new { out.read }
      unless thread.join(TIMEOUT)
        Process.kill('KILL', -thread.pid)
        raise "#{command.join(' ')} took over #{TIMEOUT} s:\n#{reader.value}"
      end
      [reader.value, thread.value]
    end
  end

  # Debian 13 registers some packaged gems (racc 1.8.1, useragent 0.16.8,
  # csv) with a gemspec and no gem folder, their files in vendor_ruby, which
  # Bundler takes for gems to download. A gem path of the temporary folder
  # gives each a folder whose lib is vendor_ruby, and its gemspec; returns
  # the GEM_PATH that puts it first (when every gem has its folder, the
  # GEM_PATH of this run: the sid leg's names its Rails 8.1).
  def gem_folders
    missing = folderless_specs
    return ENV.fetch('GEM_PATH', nil) if missing.empty?

    home = File.join(dir, 'gem-folders')
    FileUtils.mkdir_p(File.join(home, 'specifications'))
    missing.each do |spec|
      FileUtils.mkdir_p(folder = File.join(home, 'gems', spec.full_name))
      File.symlink(RbConfig::CONFIG['vendorlibdir'], File.join(folder, 'lib'))
      FileUtils.cp(spec.loaded_from, File.join(home, 'specifications', "#{spec.full_name}.gemspec"))
    end
    [home, *Gem.path].join(File::PATH_SEPARATOR)
  end

  # Debian's arch-independent packaged gems with no folder (files in vendor_ruby).
  def folderless_specs
    Gem::Specification.reject { |spec| spec.default_gem? || File.directory?(spec.full_gem_path) }
                      .select { |spec| spec.loaded_from.to_s.include?('/rubygems-integration/all/') }
  end

  # Rails 8.1.3.1 calls JSON.parse(json, options), which json 3 (Debian
  # sid's) refuses: an app on it pins json below 3 in its Gemfile, as the
  # copy does where json 3 is installed.
  def pin_json
    return if Gem::Version.new(self.class.rails_version) < Gem::Version.new('8.1') ||
              Gem::Specification.find_all_by_name('json', '>= 3').empty?

    File.write(File.join(@app, 'Gemfile'), "\ngem 'json', '< 3' # Rails 8.1.3.1 and json 3 do not go together\n",
               mode: 'a')
  end
end
