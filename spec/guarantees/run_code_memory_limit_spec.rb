# frozen_string_literal: true

require_relative 'run_code_helper'

# Guarantee (issue #26, 5): run_code's memory limit holds a whole run, or
# the runner is not made. Without a writable memory cgroup (an unprivileged
# Puma or Sidekiq, usually) the old build's only limit was RLIMIT_AS on each
# process, up to `processes` of them, with /tmp a tmpfs it did not count:
# with memory: 1 GB the host's free memory fell by 6.8 GB in one run. Now
# construction raises RubyLLM::ConfigurationError there, saying what is
# missing and what to do, unless memory_limit: :per_process accepts the
# limit per process knowingly.
RSpec.describe 'Guarantee: run_code holds a whole run to its memory limit, or refuses', :native do
  include_context 'with code execution'

  let(:execution) { RubyLLM::FileStore::CodeExecution }
  let(:store) { RubyLLM::FileStore::Memory.new }

  def runner(**options)
    execution.new(store, python: false, ruby: false, shell: true, **options)
  end

  context 'with no memory controller (the pids cgroup here, if any, without it)' do
    before do
      pids_only = execution::Cgroup.available&.merge(memory: nil)
      allow(execution::Cgroup).to receive(:available).and_return(pids_only)
    end

    it 'refuses, saying what is missing and what to do', :aggregate_failures do
      expect { runner(processes: 64) }.to raise_error(RubyLLM::ConfigurationError) { |error|
        expect(error.message).to include('no memory cgroup is writable', 'RLIMIT_AS on each of up to 64 processes',
                                         '/tmp', 'Delegate=yes', 'memory_limit: :per_process')
      }
    end

    it 'runs with memory_limit: :per_process, the limit per process' do
      expect(runner(memory_limit: :per_process).run(language: 'shell', code: 'echo ok').stdout).to eq("ok\n")
    end

    it 'refuses a memory_limit it does not know' do
      expect { runner(memory_limit: :total) }.to raise_error(ArgumentError, /:whole_run or :per_process/)
    end
  end

  it 'refuses for root without a pids cgroup, whatever memory_limit says' do
    allow(execution::Cgroup).to receive(:available).and_return(nil)
    allow(Process).to receive(:uid).and_return(0)
    expect { runner(memory_limit: :per_process) }.to raise_error(RubyLLM::ConfigurationError, /runs as root/)
  end

  it 'refuses where this user has no cgroup at all, as Puma and Sidekiq often run', :unprivileged do
    expect(execution::Cgroup.available).to be_nil
    expect { runner }.to raise_error(RubyLLM::ConfigurationError, /no memory cgroup is writable/)
  end

  it 'holds a whole run with a memory cgroup, without being asked', :root do
    unless execution::Cgroup.available&.dig(:memory)
      next Prerequisites.missing(self, 'no memory cgroup is writable here')
    end

    expect(runner.run(language: 'shell', code: 'echo ok').stdout).to eq("ok\n")
  end
end
