# frozen_string_literal: true

$LOAD_PATH.unshift(File.expand_path('../lib', __dir__))
# bin/test runs specs again against another build of the extension (the
# portable core, in tmp/portable): its folder goes first on the load path.
native_dir = ENV.fetch('NATIVE_EXTENSION_DIR', nil)&.then { |dir| File.expand_path(dir) }
$LOAD_PATH.unshift(native_dir) if native_dir
require 'ruby_llm/file_stores/native'
if native_dir
  loaded = $LOADED_FEATURES.grep(/file_stores_native\.#{RbConfig::CONFIG['DLEXT']}\z/)
  from_dir = !loaded.empty? && loaded.all? { _1.start_with?("#{native_dir}/") }
  abort "NATIVE_EXTENSION_DIR=#{native_dir}, but the extension loaded was #{loaded}" unless from_dir
end
require 'tmpdir'

Dir[File.join(__dir__, 'support/**/*.rb')].each { |file| require file }

RSpec.configure do |config|
  config.expect_with(:rspec) { |c| c.syntax = :expect }
  config.disable_monkey_patching!
  # The Active Storage store's specs need Rails and a database: bin/test-active-storage runs them.
  # The example app's spec installs and boots a Rails app for each ruby_llm line: bin/test-example-app runs it.
  left_out = [('active_storage' unless ENV['RUBY_LLM_ACTIVE_STORAGE_SPECS']),
              ('examples' unless ENV['RUBY_LLM_EXAMPLE_APP_SPECS'])].compact
  config.exclude_pattern = "**/{#{left_out.join(',')}}/**/*_spec.rb" unless left_out.empty?
  # Examples tagged :ruby_llm need a copy of ruby_llm main: without one they
  # are left out, and the run says so once. Examples tagged with a version
  # (RubyLLMSource.each_version) exist only for the versions with a copy, so
  # 1.16 alone runs its own. Nothing else skips in CI (CI=true): see
  # spec/support/prerequisites.rb.
  unless RubyLLMSource.available?
    config.filter_run_excluding(ruby_llm: ->(value) { value == true })
    note = "Left out the examples tagged :ruby_llm: #{ENV['RUBY_LLM_LEFT_OUT'] || RubyLLMSource.skip_message}"
    config.before(:suite) { config.reporter.message(note) }
  end
  # In CI, bin/test has made copies of both lines from ../shared/vendor
  # (spec/integration/ruby_llm_from_vendor): none may be missing, but in a
  # run that says why it leaves them to another (RUBY_LLM_LEFT_OUT: the
  # unprivileged run of bin/test-unprivileged, which cannot read them).
  if Prerequisites.ci? && !ENV['RUBY_LLM_LEFT_OUT']
    missing = RubyLLMSource::SUPPORTED.reject { |version| RubyLLMSource.available?(version) }
    abort "CI=true, but there is no copy of ruby_llm #{missing.join(' and ')}: #{RubyLLMSource.skip_message}" \
      unless missing.empty?
  end
  config.after { |example| RubyLLMTally.record(example) }
  config.after(:suite) { RubyLLMTally.summary&.then { |summary| config.reporter.message(summary) } }
  # Permissions hold for any user but root: a guarantee about what they
  # shut out is tagged :unprivileged, one that needs root's privileges
  # :root. bin/test runs the guarantee suites as root and as an unprivileged
  # user, so each runs in one of the two.
  if Process.uid.zero?
    config.filter_run_excluding(unprivileged: true)
  else
    config.filter_run_excluding(root: true)
  end
  config.order = :random
  Kernel.srand config.seed
end
