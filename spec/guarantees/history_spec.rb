# frozen_string_literal: true

require 'digest'
require 'io/wait'
require_relative 'guarantee_helpers'

# Guarantee: a store's history loses no version, and every file is its
# newest version. Two processes of three threads each write, move, delete
# and rewind one NativeDir's files (with its history in a folder of its
# own) for 3 s (10 s with GUARANTEES_LONG=1); every write any of them made
# is a version of its path, and every file is its newest version. Then a
# writer of big files is killed with SIGKILL at random moments, 20 times
# (100 long): each time, every file and its history agree.
RSpec.describe 'Guarantee: the history loses no version and agrees with the files', :native do
  include_context 'in a temporary folder'

  let(:root) { File.join(@tmp, 'store') }
  let(:history) { { path: File.join(@tmp, 'history'), keep: 1_000_000 } }
  let(:seconds) { GuaranteeHelpers::LONG ? 10 : 3 }
  let(:paths) { %w[a.md b.md c.md dir/d.md dir/e.md] }

  def sha(bytes) = Digest::SHA256.hexdigest(bytes)

  # One thread's work until +deadline+: writes of bytes no one else writes,
  # moves, deletes, and now and then a rewind to a checkpoint it took.
  # Returns [path, digest] of each write it made.
  def churn(store, name, deadline)
    written = []
    checkpoint = store.checkpoint
    count = 0
    while Process.clock_gettime(Process::CLOCK_MONOTONIC) < deadline
      count += 1
      path = paths.sample
      case rand(10)
      when 0..5
        bytes = "#{name} #{count}\n"
        store.write(path, bytes)
        written << [path, sha(bytes)]
      when 6 then ignore_races { store.move(path, paths.sample) }
      when 7 then store.delete(path)
      when 8 then checkpoint = store.checkpoint
      else store.rewind(checkpoint)
      end
    end
    written
  end

  def ignore_races
    yield
  rescue RubyLLM::FileNotFoundError, RubyLLM::FileExistsError, ArgumentError
    nil
  end

  def churn_in_threads(label, deadline)
    store = RubyLLM::NativeDir.new(root, history:)
    Array.new(3) { |n| Thread.new { churn(store, "#{label}-#{n}", deadline) } }.flat_map(&:value)
  end

  def agree!(store, context)
    store.list.each do |file|
      newest = store.versions(file.path).first
      expect(newest&.digest).to eq(file.digest), "#{context}: #{file.path} is not its newest version"
    end
  end

  it 'loses no version of two processes of three threads writing, moving, deleting and rewinding' do
    RubyLLM::NativeDir.new(root, history:)
    reader, writer = IO.pipe
    deadline = Process.clock_gettime(Process::CLOCK_MONOTONIC) + seconds
    pid = fork do
      reader.close
      writer.write(JSON.generate(churn_in_threads('child', deadline)))
      writer.close
      exit!(0)
    rescue Exception => e # rubocop:disable Lint/RescueException -- the parent reports it
      writer.write(JSON.generate(error: "#{e.class}: #{e.message}"))
      exit!(1)
    end
    writer.close
    mine = churn_in_threads('parent', deadline)
    theirs = JSON.parse(reader.read)
    Process.wait(pid)
    raise theirs['error'] if theirs.is_a?(Hash)

    store = RubyLLM::NativeDir.new(root, history:)
    kept = Hash.new { |hash, path| hash[path] = store.versions(path).map(&:digest) }
    lost = (mine + theirs).reject { |path, digest| kept[path].include?(digest) }
    expect(lost).to eq([])
    expect(mine.size + theirs.size).to be > 100
    agree!(store, 'after the churn')
    puts "\n  history: #{mine.size + theirs.size} writes by 6 threads in 2 processes, none lost"
  end

  it 'leaves every file and its history agreeing after SIGKILLs mid-write' do
    rounds = GuaranteeHelpers::LONG ? 100 : 20
    big = 'x' * (4 << 20)
    RubyLLM::NativeDir.new(root, history:)
    rounds.times do |round|
      reader, writer = IO.pipe
      pid = fork do
        reader.close
        store = RubyLLM::NativeDir.new(root, history:)
        writer.syswrite('S')
        n = 0
        loop { store.write(paths[(n += 1) % paths.size], "#{round} #{n} #{big}") }
      end
      writer.close
      reader.wait_readable(30) or raise 'the writer never started'
      sleep(rand * 0.3)
      Process.kill(:KILL, pid)
      Process.wait(pid)
      reader.close
      agree!(RubyLLM::NativeDir.new(root, history:), "round #{round}")
    end
  end
end
