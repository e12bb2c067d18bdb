# frozen_string_literal: true

$LOAD_PATH.unshift(File.expand_path('../lib', __dir__))
require 'ruby_llm/file_stores/native'
require 'tmpdir'

Dir[File.join(__dir__, 'support/**/*.rb')].each { |file| require file }

RSpec.configure do |config|
  config.expect_with(:rspec) { |c| c.syntax = :expect }
  config.disable_monkey_patching!
  # The Active Storage store's specs need Rails and a database: bin/test-active-storage runs them.
  config.exclude_pattern = '**/active_storage/**/*_spec.rb' unless ENV['RUBY_LLM_ACTIVE_STORAGE_SPECS']
  config.order = :random
  Kernel.srand config.seed
end
