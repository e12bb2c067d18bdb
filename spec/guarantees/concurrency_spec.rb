# frozen_string_literal: true

require 'timeout'
require_relative 'guarantee_helpers'
require_relative 'churn_worker'

# Guarantee: many users at once lose no edit and see no torn file. 8 threads
# and 4 processes run ChurnWorker on one NativeDir for 3 seconds (10 with
# GUARANTEES_LONG=1): edit_file on files only it touches, write_file and
# delete_file on others, reads, lists and searches. At the end every
# successful edit's marker is in its file and no other, every file is one
# whole version someone wrote, refusals are the known ones, and digests agree
# with the bytes. The same with 8 threads on a Memory store.
RSpec.describe 'Guarantee: concurrent tool calls lose nothing', :native do
  include_context 'in a temporary folder'

  let(:seconds) { GuaranteeHelpers::LONG ? 10 : 3 }

  def seed(store)
    ChurnWorker::EDIT_FILES.each { |path| store.write(path, "# #{path}\nEND\n") }
  end

  def merge(reports)
    lists = lambda do |key|
      reports.each_with_object(Hash.new { |h, k| h[k] = [] }) { |r, all| r[key].each { |p, v| all[p] += v } }
    end
    { edits: lists.call('edits'), writes: lists.call('writes'), unexpected: reports.flat_map { |r| r['unexpected'] },
      refusals: reports.sum { |r| r['refusals'] }, deletes: reports.sum { |r| r['deletes'] } }
  end

  # Every successful edit is in its file, and no other marker.
  def check_edits(store, merged)
    ChurnWorker::EDIT_FILES.each do |path|
      present = store.read(path).scan(/^m-\S+$/)
      expect(present.sort).to eq(merged[:edits][path].sort), "#{path}: lost or phantom edits"
    end
  end

  # Each file written and deleted at once is absent or one whole version.
  def check_writes(store, merged)
    ChurnWorker::CHURN_FILES.each do |path|
      next unless store.exist?(path)

      expect(merged[:writes][path]).to include(store.read(path)), "#{path} is not a version anyone wrote"
    end
  end

  def check_outcome(store, merged)
    expect(merged[:unexpected]).to eq([])
    check_edits(store, merged)
    check_writes(store, merged)
    check_digests(store)
    expect([merged[:edits].values.sum(&:size), merged[:writes].values.sum(&:size), merged[:deletes]]).to all(be > 5)
  end

  def check_digests(store)
    store.list.each do |file|
      expect(file.digest).to eq(RubyLLM::FileStores::Native.sha256_hex(store.read(file.path))), file.path
    end
  end

  # After the storm, the store's read memory agrees with its digests: a
  # read followed by an edit goes through.
  def check_read_memory(store)
    tools = RubyLLM::FileStore::Tools.for(store).to_h { |t| [t.name, t] }
    ChurnWorker::EDIT_FILES.each do |path|
      tools['read_file'].call('path' => path)
      expect(tools['edit_file'].call('path' => path, 'old_text' => "END\n", 'new_text' => "last\nEND\n"))
        .to start_with('Edited'), path
    end
  end

  it 'on a NativeDir shared by 8 threads and 4 processes' do
    root = File.join(@tmp, 'store')
    seed(RubyLLM::NativeDir.new(root))
    pids = Array.new(4) do |n|
      fork do
        report = ChurnWorker.new(RubyLLM::NativeDir.new(root), "p#{n}", seconds).run
        File.write(File.join(@tmp, "report-#{n}.json"), JSON.generate(report))
        exit!(0)
      rescue Exception => e # rubocop:disable Lint/RescueException -- the child must not run the parent's suite
        warn e.full_message
        exit!(1)
      end
    end
    store = RubyLLM::NativeDir.new(root)
    reports = Array.new(8) { |n| Thread.new { ChurnWorker.new(store, "t#{n}", seconds).run } }.map(&:value)
    expect(pids.map { |pid| Process.wait2(pid).last }).to all(be_success)
    reports += Array.new(4) { |n| JSON.parse(File.read(File.join(@tmp, "report-#{n}.json"))) }
    merged = merge(reports)
    check_outcome(store, merged)
    check_outcome(RubyLLM::NativeDir.new(root), merged) # a fresh store, with no digests cached
    check_read_memory(store)
    puts "\n  concurrency (NativeDir, #{seconds} s): #{merged[:edits].values.sum(&:size)} edits, " \
         "#{merged[:writes].values.sum(&:size)} writes, #{merged[:deletes]} deletes, #{merged[:refusals]} refusals"
  end

  it 'on a Memory store shared by 8 threads' do
    store = RubyLLM::FileStore::Memory.new
    seed(store)
    reports = Array.new(8) { |n| Thread.new { ChurnWorker.new(store, "t#{n}", seconds).run } }.map(&:value)
    check_outcome(store, merge(reports))
    check_read_memory(store)
  end

  it 'lets a forked child list and search after its parent did (the worker pool is per process)' do
    store = RubyLLM::NativeDir.new(File.join(@tmp, 'store'))
    20.times { |i| store.write("f#{i}.md", "needle #{i}\n") }
    expect(store.list.size).to eq(20) # the parent's worker threads are running now
    pid = fork do
      child = RubyLLM::NativeDir.new(File.join(@tmp, 'store'))
      ok = child.list.size == 20 && RubyLLM::FileStore::Search.run(child, 'needle', files_only: true).lines.size == 20
      exit!(ok ? 0 : 1)
    end
    status = Timeout.timeout(30) { Process.wait2(pid).last }
  rescue Timeout::Error
    Process.kill(:KILL, pid)
    raise 'the forked child hung in list or search: it waited for worker threads it does not have'
  else
    expect(status).to be_success
  end
end
