# frozen_string_literal: true

# apply_patch against edit_file making the same changes (issue #31's target:
# apply_patch at most 1.5x edit_file's time):
#
#   40 Ruby-like files of about 400 lines each on a NativeDir, read first; one
#   apply_patch call of 400 hunks (10 per file, each with 3 lines of context
#   above and below and an @@ def line, as models write them) against the same
#   400 changes through edit_file, 100 edits per call (its MAX_EDITS), so 4
#   calls of 10 files each.
#
# Each repetition writes the files afresh (untimed) and times one side; the
# sides take turns, and the median of BENCH_RUNS (7) counts. Both sides check
# that they made the same files.
#
# Usage, from the repository root after `rake compile`:
#
#   ruby -Ilib bench/apply_patch_bench.rb     (or: rake bench)

lib = File.expand_path('../lib', __dir__)
$LOAD_PATH.unshift(lib) unless $LOAD_PATH.include?(lib)

require 'tmpdir'
require 'ruby_llm/file_stores/native'

# The files and the changes, as a patch and as edits.
module PatchBenchCorpus
  FILES = 40
  HUNKS = 10
  METHODS = 40

  module_function

  def path(file) = "app/models/model#{file}.rb"

  def changed_line(file, method) = "    value_#{file}_#{method} = compute(#{method})"

  def source(file)
    body = Array.new(METHODS) do |m|
      lines = ["  def method_#{m}", "    start = #{m}", changed_line(file, m), '    log(start)',
               "    finish(value_#{file}_#{m})", '  end', '']
      lines.map { |line| "#{line}\n" }.join
    end
    "class Model#{file}\n#{body.join}end\n"
  end

  # The methods a file's hunks change: every fourth.
  def changed_methods = Array.new(HUNKS) { |h| h * 4 }

  def patch
    files = Array.new(FILES) do |f|
      hunks = changed_methods.map do |m|
        lines = ["@@ def method_#{m}", "     start = #{m}", "-#{changed_line(f, m)}",
                 "+#{changed_line(f, m).sub(')', ' + 1)')}", '     log(start)',
                 "     finish(value_#{f}_#{m})", '   end']
        lines.map { |line| "#{line}\n" }.join
      end
      "*** Update File: #{path(f)}\n#{hunks.join}"
    end
    "*** Begin Patch\n#{files.join}*** End Patch\n"
  end

  # Groups of edits, each at most MAX_EDITS.
  def edit_calls
    edits = Array.new(FILES) do |f|
      changed_methods.map do |m|
        { 'path' => path(f), 'old_text' => changed_line(f, m), 'new_text' => changed_line(f, m).sub(')', ' + 1)') }
      end
    end.flatten
    edits.each_slice(RubyLLM::FileStores::Native::MAX_EDITS).to_a
  end
end

def fresh_store(dir)
  store = RubyLLM::NativeDir.new(dir)
  PatchBenchCorpus::FILES.times do |f|
    path = PatchBenchCorpus.path(f)
    file = store.write(path, PatchBenchCorpus.source(f))
    store.record_read(path, file.digest)
  end
  store
end

def tool(store, name) = RubyLLM::FileStore::Tools.for(store, tools: %i[read edit patch]).find { |t| t.name == name }

# [wall, CPU] seconds of the block: on a shared machine the CPU time (this
# process's, native threads included) moves less than the wall time.
def timed
  clocks = [Process::CLOCK_MONOTONIC, Process::CLOCK_PROCESS_CPUTIME_ID]
  started = clocks.map { |c| Process.clock_gettime(c) }
  yield
  clocks.zip(started).map { |c, t| Process.clock_gettime(c) - t }
end

runs = Integer(ENV.fetch('BENCH_RUNS', '7'))
patch = PatchBenchCorpus.patch
calls = PatchBenchCorpus.edit_calls
times = { patch: [], edit: [] }
results = {}
Dir.mktmpdir do |tmp|
  (runs * 2).times do |i|
    side = i.even? ? :patch : :edit
    dir = File.join(tmp, "run#{i}")
    store = fresh_store(dir)
    times[side] << timed do
      if side == :patch
        answer = tool(store, 'apply_patch').call('patch' => patch)
        raise "apply_patch failed: #{answer.inspect}" unless answer.is_a?(String)
      else
        edit_file = tool(store, 'edit_file')
        calls.each do |edits|
          answer = edit_file.call('edits' => edits)
          raise "edit_file failed: #{answer.inspect}" unless answer.is_a?(String)
        end
      end
    end
    results[side] ||= store.list.to_h { |f| [f.path, f.digest] }
  end
end
raise 'apply_patch and edit_file made different files' unless results[:patch] == results[:edit]

median = ->(list) { list.sort[list.size / 2] }
puts "apply_patch: #{PatchBenchCorpus::FILES * PatchBenchCorpus::HUNKS} hunks over #{PatchBenchCorpus::FILES} files " \
     "(#{patch.bytesize} bytes of patch), median of #{runs}"
{ 'wall' => 0, 'CPU' => 1 }.each do |clock, at|
  patch_time = median.call(times[:patch].map { |t| t[at] })
  edit_time = median.call(times[:edit].map { |t| t[at] })
  ratio = patch_time / edit_time
  puts format('  %<clock>-4s apply_patch, 1 call: %<patch>7.1f ms; edit_file, %<calls>d calls: %<edit>7.1f ms; ' \
              '%<ratio>.2fx (target: at most 1.5x) %<verdict>s',
              clock:, patch: patch_time * 1000, calls: calls.size, edit: edit_time * 1000, ratio:,
              verdict: ratio <= 1.5 ? 'ok' : 'MISSED')
end
