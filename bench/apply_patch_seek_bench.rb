# frozen_string_literal: true

# Finding a hunk, before and after issue #38 (item 1), side by side in one run:
# the old build (OLD_LIB, /work/old/lib by default: its Ruby and its
# extension) and this checkout's lib/, each in a child process of its own so
# each loads its own extension. The issue's case, through the tools only, on a
# Memory store: write 1,000 lines of "a", one replace_all edit_file making
# them N, then one apply_patch whose hunk is M - 1 context lines " a" and a
# last "-b" (every start matches all but the last line). Sizes: N = 16,000,
# M = 8,000 (a 24 KB patch) and N = 48,000, M = 24,000 (72 KB). Only the
# apply_patch call is timed; a call still running after BENCH_PATCH_CAP
# seconds (300) is stopped (the search is cancellable) and shown as "> cap".
#
#   ruby bench/apply_patch_seek_bench.rb
#
# Environment: OLD_LIB, BENCH_PATCH_CAP.
require 'open3'
require 'rbconfig'

CHILD = <<~'RUBY'
  require 'ruby_llm/file_stores/native'
  lines, hunk, cap = Integer(ARGV[0]), Integer(ARGV[1]), Float(ARGV[2])
  store = RubyLLM::FileStore::Memory.new
  tools = RubyLLM::FileStore::Tools.for(store, tools: %i[read write edit patch]).to_h { |t| [t.name, t] }
  tools.fetch('write_file').call('path' => 'a.txt', 'content' => "a\n" * 1000)
  tools.fetch('edit_file').call('path' => 'a.txt', 'old_text' => "a\n", 'new_text' => "a\n" * (lines / 1000),
                                'replace_all' => true)
  patch = "*** Begin Patch\n*** Update File: a.txt\n@@\n#{" a\n" * (hunk - 1)}-b\n*** End Patch\n"
  clock = -> { Process.clock_gettime(Process::CLOCK_MONOTONIC) }
  started = clock.call
  call = Thread.new { tools.fetch('apply_patch').call('patch' => patch) }
  answer = call.join(cap)&.value
  call.kill.join
  seconds = clock.call - started
  abort "unexpected answer: #{answer.inspect[0, 200]}" if answer && !answer.to_s.include?('does not match')
  puts "#{answer ? seconds : -1} #{patch.bytesize}"
RUBY

def time_call(lib, lines, hunk, cap)
  out, err, status = Open3.capture3(RbConfig.ruby, '-I', lib, '-e', CHILD, lines.to_s, hunk.to_s, cap.to_s)
  raise "the child on #{lib} failed: #{err}" unless status.success?

  seconds, bytes = out.split
  [Float(seconds), Integer(bytes)]
end

def shown(seconds, cap) = seconds.negative? ? "> #{cap.round} s" : format('%.3f s', seconds)

old_lib = ENV['OLD_LIB'] || '/work/old/lib'
new_lib = File.expand_path('../lib', __dir__)
cap = Float(ENV.fetch('BENCH_PATCH_CAP', '300'))
old = Dir.exist?(old_lib)
warn "No old build in #{old_lib} (set OLD_LIB): this build's times only." unless old

puts 'apply_patch, one hunk of M - 1 context lines and a last -b over N lines of "a" (issue #38):'
[[16_000, 8_000], [48_000, 24_000]].each do |lines, hunk|
  after, bytes = time_call(new_lib, lines, hunk, cap)
  line = format('  N = %<lines>d, M = %<hunk>d (%<kb>d KB patch): after %<after>s', lines:, hunk:, kb: bytes / 1000,
                                                                                    after: shown(after, cap))
  if old
    before, = time_call(old_lib, lines, hunk, cap)
    ratio = before.negative? ? "over #{(cap / after).round}x" : "#{(before / after).round}x"
    line += ", before #{shown(before, cap)} (#{ratio} faster)"
  end
  puts line
end
