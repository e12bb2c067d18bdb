# frozen_string_literal: true

require 'tmpdir'

# Shared set-up for the code execution specs: fast limits, a fresh folder
# per example, and a skip with the reason where no sandbox can be made here
# (a failure in CI).
module CodeExecutionHelper
  FAST = { timeout: 10, memory: 256 * 1024 * 1024, processes: 32, file_size: 16 * 1024 * 1024 }.freeze

  # Where no memory cgroup can be made (an unprivileged run, as
  # bin/test-unprivileged makes), runners accept the memory limit per
  # process, which is all there is.
  def self.memory_limit
    RubyLLM::FileStore::CodeExecution::Cgroup.available&.dig(:memory) ? {} : { memory_limit: :per_process }
  end

  def self.sandbox_problem
    return @sandbox_problem if defined?(@sandbox_problem)

    @sandbox_problem = begin
      RubyLLM::FileStore::CodeExecution.new(RubyLLM::FileStore::Memory.new, python: false, shell: true, ruby: false,
                                                                            **memory_limit)
      nil
    rescue RubyLLM::ConfigurationError => e
      e.message
    end
  end

  def self.python?
    RubyLLM::FileStore::CodeExecution::Environments.python_info
    true
  rescue RubyLLM::ConfigurationError
    false
  end

  def runner_for(store, **options)
    RubyLLM::FileStore::CodeExecution.new(store, **FAST, **CodeExecutionHelper.memory_limit, **options)
  end

  def python(runner, code, files: nil)
    runner.run(language: 'python', code:, files:)
  end
end

RSpec.shared_context 'with code execution' do
  include CodeExecutionHelper

  around do |example|
    problem = CodeExecutionHelper.sandbox_problem
    next Prerequisites.missing(self, "no sandbox here: #{problem}") if problem
    next Prerequisites.missing(self, 'python3 is not on PATH') unless CodeExecutionHelper.python?

    Dir.mktmpdir('code-execution-spec') do |dir|
      @tmp = dir
      example.run
    end
  end
end
