# frozen_string_literal: true

# What keeping a history costs (issue #42): write_file, read_file + edit_file
# and a run_code run with history on against off, on each store (Memory,
# NativeDir, Active Storage on SQLite with the Disk service), side by side in
# one run, rounds taking turns (in a random order), the fastest of
# BENCH_RUNS (7) rounds: on a shared machine the slow rounds measure the
# neighbours, not the store. The target is at most 1.3x the time. Then the
# growth of the peak resident memory of a process writing 3,000 versions of
# a 64 KB file with history off, and a sixth of that and 3,000 with history
# on keeping them all (keep: 10,000; BENCH_HISTORY_VERSIONS changes the
# 3,000), per store: memory must not grow with the versions kept (a
# NativeDir keeps their bytes on disk, Active Storage in blobs; a Memory
# store keeps them in memory by design, so it is shown, not judged).
#
# Usage, from the repository root: ruby bench/history_bench.rb (or rake bench).
# BENCH_HISTORY_AS=0 leaves Active Storage out; the run_code rows need a sandbox.

require 'tmpdir'
require 'fileutils'
$LOAD_PATH.unshift(File.expand_path('../lib', __dir__))
require 'ruby_llm/file_stores/native'

RUNS = Integer(ENV.fetch('BENCH_RUNS', '7'))
MANY = Integer(ENV.fetch('BENCH_HISTORY_VERSIONS', '3000'))
AS = ENV['BENCH_HISTORY_AS'] != '0'
TMP = Dir.mktmpdir('history_bench')
at_exit { FileUtils.rm_rf(TMP) }

if AS
  ENV['RUBY_LLM_AS_DIR'] ||= File.join(TMP, 'as')
  FileUtils.mkdir_p(ENV.fetch('RUBY_LLM_AS_DIR'))
  require_relative '../spec/active_storage/support/rails_app'
  ActiveStorageSpecApp.migrate!
end

def store_for(kind, history, name)
  history = { keep: 10_000 } if history == :all
  case kind
  when 'Memory' then RubyLLM::FileStore::Memory.new(history:)
  when 'NativeDir'
    folder = File.join(TMP, "#{name}-history")
    RubyLLM::NativeDir.new(File.join(TMP, name),
                           history: history && (history == true ? folder : { path: folder, **history }))
  when 'Active Storage' then RubyLLM::FileStore::ActiveStorage.new(Chat.create!(title: name), history:)
  end
end

def tools(store)
  RubyLLM::FileStore::Tools.for(store, tools: %i[read write edit]).to_h { |tool| [tool.name, tool] }
end

def timed
  GC.start # each side pays for its own garbage, not the other's
  started = Process.clock_gettime(Process::CLOCK_MONOTONIC)
  yield
  Process.clock_gettime(Process::CLOCK_MONOTONIC) - started
end

TEXT = (1..40).map { |n| "line #{n}: the quick brown fox jumps over the lazy dog\n" }.join

WORK = {
  'write_file x500' => lambda do |store, round|
    tool = tools(store).fetch('write_file')
    timed { 500.times { |n| tool.call('path' => "notes/#{n % 10}.md", 'content' => "#{round} #{n}\n#{TEXT}") } }
  end,
  'read_file + edit_file x40' => lambda do |store, round|
    all = tools(store)
    store.write('edit.md', TEXT)
    timed do
      40.times do |n|
        all.fetch('read_file').call('path' => 'edit.md')
        result = all.fetch('edit_file').call('path' => 'edit.md', 'old_text' => "line #{(n % 40) + 1}:",
                                             'new_text' => "line #{(n % 40) + 1}(#{round}-#{n}):")
        raise "edit failed: #{result}" if result.is_a?(Hash)
      end
    end
  end,
  'run_code writing 20 files' => lambda do |store, round|
    runner = RubyLLM::FileStore::CodeExecution.new(store, python: false, shell: true, ruby: false, timeout: 30)
    code = "for i in $(seq 20); do echo #{round}-$i > out$i.txt; done"
    timed { runner.run(language: 'shell', code:) }
  end
}.freeze

sandbox = begin
  RubyLLM::FileStore::CodeExecution.new(RubyLLM::FileStore::Memory.new, python: false, shell: true, ruby: false)
  true
rescue RubyLLM::ConfigurationError => e
  warn "run_code rows left out: #{e.message}"
  false
end

kinds = ['Memory', 'NativeDir', *('Active Storage' if AS)]
puts format('%<store>-16s %<work>-28s %<off>10s %<on>10s %<ratio>7s', store: 'store', work: 'work', off: 'off (ms)',
                                                                      on: 'on (ms)', ratio: 'ratio')
worst = 0
kinds.each do |kind|
  WORK.each do |label, work|
    next if label.start_with?('run_code') && !sandbox

    times = { false => [], true => [] }
    RUNS.times do |round|
      [false, true].shuffle.each do |history|
        store = store_for(kind, history, "#{kind.delete(' ')}-#{label.hash.abs}-#{round}-#{history}")
        work.call(store, round) unless label.start_with?('write') && kind == 'NativeDir' # a warm-up
        times[history] << work.call(store, round + 1_000)
      end
    end
    off, on = times.transform_values(&:min).values_at(false, true)
    ratio = on / off
    worst = ratio if ratio > worst
    puts format('%<kind>-16s %<label>-28s %<off>10.1f %<on>10.1f %<ratio>6.2fx', kind:, label:, off: off * 1000,
                                                                                 on: on * 1000, ratio:)
  end
end
puts format('worst ratio %<worst>.2fx (target: at most 1.30x)', worst:)

# The process's peak resident memory so far, in kB.
def high_water_mark = File.read('/proc/self/status')[/VmHWM:\s+(\d+)/, 1].to_i

# Peak resident memory of a child writing +versions+ versions of a 64 KB
# file with history on, less before its first write (kB).
def peak_growth(kind, versions, history)
  reader, writer = IO.pipe
  pid = fork do
    reader.close
    store = store_for(kind, history, "rss-#{kind.delete(' ')}-#{versions}-#{history}")
    ActiveRecord::Base.connection.reconnect! if kind == 'Active Storage'
    base = high_water_mark
    chunk = 'x' * (64 << 10)
    versions.times { |n| store.write('big.txt', "#{n}\n#{chunk}") }
    writer.write((high_water_mark - base).to_s)
    exit!(0)
  end
  writer.close
  Process.wait(pid)
  reader.read.to_i
end

puts
puts format('%<store>-16s %<off>16s %<few>16s %<many>16s', store: 'store', off: "off, #{MANY} (MB)",
                                                           few: "on, #{MANY / 6} (MB)", many: "on, #{MANY} (MB)")
kinds.each do |kind|
  off = peak_growth(kind, MANY, false)
  few = peak_growth(kind, MANY / 6, :all)
  many = peak_growth(kind, MANY, :all)
  note = kind == 'Memory' ? '   (in memory by design)' : ''
  puts format('%<kind>-16s %<off>16.1f %<few>16.1f %<many>16.1f%<note>s', kind:, off: off / 1024.0, few: few / 1024.0,
                                                                          many: many / 1024.0, note:)
end
