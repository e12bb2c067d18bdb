# frozen_string_literal: true

require 'digest'
require 'json'
require 'timeout'
require_relative 'support/active_storage_helper'
require_relative 'support/mounts_churn'

# The guarantee of issue #30's mounts, on PostgreSQL (bin/test-active-storage's
# PostgreSQL runs; SQLite takes one writer at a time and is not what a
# deployment with several processes runs): 2 processes of 4 threads each
# move, edit and search across three stores in one tree (a NativeDir folder,
# the chat's Active Storage store, a Memory store per process) for
# MOUNTS_GUARANTEE_SECONDS (10 s): no file lost or duplicated, no deadlock,
# every digest right.
if ActiveStorageSpecApp.postgresql?
  RSpec.describe RubyLLM::FileStore::Mounts, 'under moves, edits and searches from 2 processes of 4 threads' do
    seconds = Float(ENV.fetch('MOUNTS_GUARANTEE_SECONDS', '10'))
    worker = File.expand_path('support/mounts_worker.rb', __dir__)

    let(:chat) { Chat.create!(title: 'Mounts') }
    let(:disk) { File.join(ActiveStorageSpecApp::DIR, "mounts-disk-#{SecureRandom.hex(4)}") }

    def spawn_churn(worker, process, seconds, go_file)
      report = File.join(ActiveStorageSpecApp::DIR, "mounts-#{process}-#{SecureRandom.hex(4)}.json")
      out = "#{report}.out"
      pid = Process.spawn(RbConfig.ruby, worker, chat.id.to_s, disk, process.to_s, seconds.to_s, go_file, report,
                          out:, err: %i[child out])
      [pid, report, out]
    end

    # Waits for the workers, at most +limit+ seconds; a worker still running
    # then is stuck (a deadlock), and is killed.
    def wait_all(workers, limit)
      deadline = Process.clock_gettime(Process::CLOCK_MONOTONIC) + limit
      workers.map do |pid, report, out|
        until (status = Process.wait2(pid, Process::WNOHANG)&.last)
          if Process.clock_gettime(Process::CLOCK_MONOTONIC) > deadline
            Process.kill('KILL', pid)
            Process.wait(pid)
            raise "a worker was still running #{limit} s after its end: a deadlock? #{File.read(out)}"
          end
          sleep 0.05
        end
        raise "a worker failed: #{File.read(out)}" unless status.success?

        JSON.parse(File.read(report))
      end
    end

    it 'loses no file, duplicates none, never deadlocks, and keeps every digest right' do
      go = File.join(ActiveStorageSpecApp::DIR, "mounts-go-#{SecureRandom.hex(4)}")
      workers = Array.new(2) { |process| spawn_churn(worker, process, seconds, go) }
      Timeout.timeout(60) { sleep 0.05 until Dir["#{go}.*.ready"].size == 2 }
      FileUtils.touch(go)
      reports = wait_all(workers, seconds + MountsChurn::OVERTIME + 30)

      memories = store_for(Chat.find(chat.id))
      folder = RubyLLM::NativeDir.new(disk)
      files = folder.list.map { |f| [f, folder.read(f.path)] } + memories.list.map { |f| [f, memories.read(f.path)] }
      reports.each do |report|
        report.fetch('scratch').each do |path, (bytes, digest)|
          files << [RubyLLM::StoredFile.new(path:, byte_size: bytes.bytesize, content_type: 'text/markdown', digest:),
                    bytes]
        end
      end
      names = files.map { |file, _| file.filename }
      expected = 2.times.flat_map { |p| Array.new(MountsChurn::TOKENS) { |i| MountsChurn.token_path(p, i) } }
      expect(names.tally.select { |_, n| n > 1 }).to eq({}) # none duplicated
      expect(names.sort).to eq(expected.sort) # none lost
      files.each do |file, bytes|
        expect(file.digest).to eq(Digest::SHA256.hexdigest(bytes)), "#{file.path}: digest"
        expect(bytes).to match(/\Atoken-#{file.filename[/\d+-\d+/]}\nedits: \d+\n\z/)
      end
      reports.each do |report|
        expect(report.fetch('counts').values_at('moved', 'edited', 'searched')).to all(be_positive)
      end

      # What the model reads now, it may edit: the read digests are right.
      tree = described_class.new(folder, 'memories' => memories)
      tools = tools_for(tree)
      tree.list.each do |file|
        tools.fetch('read_file').call('path' => file.path)
        result = tools.fetch('edit_file').call('path' => file.path, 'old_text' => 'edits: ', 'new_text' => 'edits: 1')
        expect(result).to eq("Edited #{file.path} (1 replacement).")
      end
    end
  end
end
