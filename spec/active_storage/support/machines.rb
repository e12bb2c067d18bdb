# frozen_string_literal: true

require 'rbconfig'
require 'tmpdir'

# Workers as on other machines (support/machine.rb) for the specs of what
# holds across them: each in a process with a temporary folder of its own,
# started together through a pipe, and checks of what they leave in the
# database and the service.
module Machines
  SCRIPT = File.expand_path('machine.rb', __dir__)

  # One worker: its pid, the pipe it reports on and where its output goes.
  Worker = Struct.new(:pid, :reports, :hold, :out, :reaped) do
    # The next line the worker reports; nil when it has exited.
    def report = reports.gets&.chomp

    # Kills the worker unless it was waited for already (its pid may be
    # another process's by now).
    def kill!
      return if reaped

      Process.kill(:KILL, pid)
      Process.wait(pid)
      self.reaped = true
    end

    # Waits for the worker; its output, and whether it exited well.
    def finish
      _, status = Process.wait2(pid)
      self.reaped = true
      [File.read(out), status.success?]
    end
  end

  module_function

  # Starts one worker per entry of +commands+ (each [args, env]) and lets
  # them go together once each has said it is ready (no sleep: the pipe's
  # end of file starts them). +own_storage+ gives each a Disk root of its
  # own, as on another machine.
  def start(commands, own_storage:)
    go_r, go_w = IO.pipe
    workers = commands.map { |args, env| spawn(args, env || {}, go_r, own_storage) }
    started.concat(workers)
    go_r.close
    workers.each { |worker| raise "worker did not start: #{File.read(worker.out)}" unless worker.report == 'ready' }
    go_w.close
    workers
  end

  # The workers started, so an example that fails midway kills what is
  # left of them (a writing worker would write on).
  def started = (@started ||= [])

  def kill_all
    started.each(&:kill!)
    started.clear
  end

  def spawn(args, env, go_r, own_storage)
    dir = Dir.mktmpdir('machine', ActiveStorageSpecApp::DIR)
    reports_r, reports_w = IO.pipe
    hold_r, hold_w = IO.pipe
    out = File.join(dir, 'out')
    env = env.merge('TMPDIR' => dir)
    env['RUBY_LLM_AS_DIR'] = dir if own_storage
    options = { 3 => go_r, 4 => reports_w, 5 => hold_r, out:, err: %i[child out] }
    pid = Process.spawn(env, RbConfig.ruby, SCRIPT, *args.map(&:to_s), options)
    [reports_w, hold_r].each(&:close)
    Worker.new(pid, reports_r, hold_w, out)
  end

  # What is wrong with the chat's files: a row without its blob, a blob
  # whose file is not in the service, or bytes that do not match the row's
  # digest. Empty when nothing is.
  def broken_rows(chat)
    RubyLLM::ActiveRecord::ChatFile.where(chat:).order(:path).filter_map do |row|
      blob = ActiveStorage::Attachment.find_by(record: row, name: 'file')&.blob
      next "#{row.path}: no blob" unless blob
      next "#{row.path}: blob #{blob.key} has no file" unless blob.service.exist?(blob.key)

      digest = Digest::SHA256.hexdigest(blob.download)
      "#{row.path}: digest #{row.digest}, its blob's bytes #{digest}" unless digest == row.digest
    end
  end

  # The keys of the files in the service, and those no blob row names.
  def stored_keys
    ActiveStorageSpecApp.stored_files.map { |file| File.basename(file) }.sort
  end

  def unnamed_keys = stored_keys - ActiveStorage::Blob.pluck(:key)

  # Blobs the store marked as its own that nothing is attached to.
  def unattached_marked
    ActiveStorage::Blob.where.not(id: ActiveStorage::Attachment.select(:blob_id))
                       .select { |blob| blob.metadata[RubyLLM::FileStore::ActiveStorage::Blobs::MARK] }
  end
end
