# frozen_string_literal: true

# What run_code adds to an interpreter's own start-up: `print(1)` run bare
# (Process.spawn of the same python3, output read through a pipe) against
# RubyLLM::FileStore::CodeExecution#run, side by side in one run:
#
#   (a) in place: a RubyLLM::NativeDir holding 100 small files (the run walks
#       the folder before and after, holds its lock, makes the sandbox);
#   (b) staged: a RubyLLM::FileStore::Memory holding the same 100 files, all
#       copied in through files: ["data"] and the folder walked after;
#   (c) the sandbox alone: in place over an empty folder.
#
# Each case reports the median of BENCH_RUNS (30) runs, the sides taken in
# turn, and the overhead (median minus the bare median) and ratio. The target
# is an overhead of at most 50 ms. Runs in a Dir.mktmpdir removed at the end.
#
# Usage, from the repository root: ruby -Ilib bench/code_execution_bench.rb
# (or rake bench). Needs bubblewrap; BENCH_NO_SANDBOX=1 times sandbox: false.

lib = File.expand_path('../lib', __dir__)
$LOAD_PATH.unshift(lib) unless $LOAD_PATH.include?(lib)

require 'ruby_llm/file_stores/native'
require 'tmpdir'

RUNS = Integer(ENV.fetch('BENCH_RUNS', '30'))
SANDBOX = ENV['BENCH_NO_SANDBOX'] != '1'
CODE = 'print(1)'

def now = Process.clock_gettime(Process::CLOCK_MONOTONIC)

def median(times)
  sorted = times.sort
  (sorted[(sorted.size - 1) / 2] + sorted[sorted.size / 2]) / 2
end

def bare(python)
  out, = IO.popen([python, '-c', CODE], &:read)
  raise 'bare python failed' unless out == "1\n"
end

def timed(&block)
  start = now
  block.call
  now - start
end

def runners(tmp)
  files = (1..100).map { |i| ["data/file-#{i}.txt", "line #{i}\n" * 10] }
  dir = RubyLLM::NativeDir.new(File.join(tmp, 'dir'))
  memory = RubyLLM::FileStore::Memory.new
  files.each { |path, text| [dir, memory].each { |store| store.write(path, text) } }
  empty = RubyLLM::NativeDir.new(File.join(tmp, 'empty'))
  options = { python: true, ruby: false, shell: false, sandbox: SANDBOX }
  {
    'in place, 100 files' => [RubyLLM::FileStore::CodeExecution.new(dir, **options), nil],
    'staged, 100 files copied in' => [RubyLLM::FileStore::CodeExecution.new(memory, **options), ['data']],
    'in place, empty folder' => [RubyLLM::FileStore::CodeExecution.new(empty, **options), nil]
  }
end

def measure(python, cases)
  times = Hash.new { |h, k| h[k] = [] }
  3.times { bare(python) }
  RUNS.times do
    times['bare'] << timed { bare(python) }
    cases.each do |name, (runner, names)|
      times[name] << timed do
        result = runner.run(language: 'python', code: CODE, files: names)
        raise "#{name}: #{result.to_h}" unless result.stdout == "1\n"
      end
    end
  end
  times
end

Dir.mktmpdir('code-execution-bench') do |tmp|
  python = RubyLLM::FileStore::CodeExecution::Environments.python_info.fetch('executable')
  cases = runners(tmp)
  times = measure(python, cases)
  base = median(times['bare'])
  puts "run_code of #{CODE} (#{python}, #{SANDBOX ? 'bubblewrap sandbox' : 'no sandbox'}), median of #{RUNS}:"
  puts format('  %-30<name>s %7.1<ms>f ms', name: 'bare interpreter', ms: base * 1000)
  cases.each_key do |name|
    m = median(times[name])
    puts format('  %-30<name>s %7.1<ms>f ms   overhead %+6.1<over>f ms   ratio %.2<ratio>fx',
                name:, ms: m * 1000, over: (m - base) * 1000, ratio: m / base)
  end
end
