# frozen_string_literal: true

$LOAD_PATH.unshift(File.expand_path('../lib', __dir__))
require 'ruby_llm/file_stores/native'
require 'tmpdir'

Dir[File.join(__dir__, 'support/**/*.rb')].each { |file| require file }

RSpec.configure do |config|
  config.expect_with(:rspec) { |c| c.syntax = :expect }
  config.disable_monkey_patching!
  config.order = :random
  Kernel.srand config.seed

  # GC_STRESS=1 runs the specs tagged :native (the ones that call native
  # code) with GC.stress on, to catch Ruby objects the binding forgot to keep.
  if ENV['GC_STRESS'] == '1'
    config.filter_run_including :native
    config.around(:each, :native) do |example|
      GC.stress = true
      example.run
    ensure
      GC.stress = false
    end
  end
end
