# frozen_string_literal: true

# The Active Storage store on S3 (the local moto server) and PostgreSQL with a
# 512 MB text file (6.7 million lines): write from a File, read_file lines
# 1-100 and read_file around line 3,000,000, each in its own process
# (spec/active_storage/support/big_file.rb), printing the seconds and the
# growth of the peak resident memory, with the issue's targets (64 MB, and
# 0.5 s for the first lines) and, when the old build is there
# (BENCH_OLD_DIR, default /work/old, with its extension built in lib/), the
# same steps on it in the same run. Starts and stops its own servers
# (spec/active_storage/s3_server and postgres_server, as bin/test-active-storage
# does), in a temporary folder removed at the end.
#
# Usage, from the repository root: ruby bench/active_storage_bench.rb (or rake bench).
# BENCH_AS_MB changes the file's size; BENCH_AS=0 skips this bench.

require 'json'
require 'open3'
require 'rbconfig'
require 'tmpdir'

exit if ENV['BENCH_AS'] == '0'

ROOT = File.expand_path('..', __dir__)
MEGABYTES = Integer(ENV.fetch('BENCH_AS_MB', '512'))
LINE = "line %08d: the quick brown fox jumps over the lazy dog, again and again, and once more\n"
OLD = ENV.fetch('BENCH_OLD_DIR', '/work/old')
STEP = File.join(ROOT, 'spec/active_storage/support/big_file.rb')

def server(*args)
  out, status = Open3.capture2(File.join(ROOT, 'spec/active_storage', args.first), *args.drop(1))
  raise "#{args.first} #{args[1]} failed" unless status.success?

  out.strip
end

def big_file(path)
  lines = (MEGABYTES << 20) / format(LINE, 1).bytesize
  File.open(path, 'wb') do |file|
    (1..lines).each_slice(10_000) { |slice| file.write(slice.map { |n| format(LINE, n) }.join) }
  end
  lines
end

# Runs one step of big_file.rb for +build+ ({ lib:, env: }); its JSON.
def step(env, *args)
  out, err, status = Open3.capture3(env, RbConfig.ruby, STEP, *args.map(&:to_s))
  raise "#{args.first} failed: #{err[-2000..] || err}#{out[-500..]}" unless status.success?

  JSON.parse(out.lines.last, symbolize_names: true)
end

def chat_for(env)
  script = "require #{File.join(ROOT, 'spec/active_storage/support/rails_app').dump}\n" \
           "ActiveStorageSpecApp.migrate!\nActiveStorageSpecApp.clear_storage!\nputs Chat.create!(title: 'bench').id"
  out, err, status = Open3.capture3(env, RbConfig.ruby, '-e', script)
  raise "setup failed: #{err}" unless status.success?

  out.lines.last.strip
end

def row(*cells)
  widths = [12, 28, 10, 12]
  puts cells.each_with_index.map { |cell, i| i < widths.size ? cell.to_s.ljust(widths[i]) : cell.to_s }.join(' ')
end

# The three steps on one build (+name+, its +lib+), each its own process.
def measure(label, (name, lib), work, servers, (source, deep))
  s3, pg = servers
  dir = File.join(work, name)
  Dir.mkdir(dir)
  env = { 'RUBY_LLM_AS_LIB' => lib, 'RUBY_LLM_AS_DIR' => dir, 'DATABASE_URL' => "#{pg}/bench_#{name}",
          'RUBY_LLM_AS_S3_ENDPOINT' => s3, 'RUBY_LLM_AS_S3_BUCKET' => "bench-#{name}" }
  chat = chat_for(env)
  [['write from a File', 'write', source, '<= 64 MB'],
   ['read_file 1-100', 'read', 1, 100, '<= 64 MB, <= 0.5 s'],
   ["read_file #{deep}-#{deep + 99}", 'read', deep, 100, '<= 64 MB']].each do |title, command, *args, target|
    outcome = step(env, command, chat, 'big.txt', *args)
    row(label, title, outcome[:seconds].round(2), outcome[:growth_mb], target)
  rescue StandardError => e
    row(label, title, "failed: #{e.message.lines.first(3).join.strip}")
  end
end

Dir.mktmpdir('ruby_llm_as_bench') do |work|
  File.chmod(0o755, work) # PostgreSQL runs as postgres when the bench runs as root
  s3 = server('s3_server', 'start', work)
  begin
    pg = server('postgres_server', 'start', work, 'bench_new', 'bench_old')
    source = File.join(work, 'big.txt')
    lines = big_file(source)
    builds = { 'this build' => ['new', File.join(ROOT, 'lib')] }
    builds['old build'] = ['old', File.join(OLD, 'lib')] if Dir.exist?(File.join(OLD, 'lib/ruby_llm'))
    puts "Active Storage on S3 (moto) + PostgreSQL, a #{File.size(source) >> 20} MB text file of #{lines} lines"
    row('build', 'step', 'seconds', 'growth MB', 'target')
    builds.each do |label, build|
      measure(label, build, work, [s3, pg], [source, [3_000_000, lines - 100].min])
    end
  ensure
    server('postgres_server', 'stop', work)
    server('s3_server', 'stop', work)
  end
end
