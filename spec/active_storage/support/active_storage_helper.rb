# frozen_string_literal: true

# Loads the spec application once, makes its tables through the generator's
# migration, and empties them (and the service's files) before each
# example. Spec files in spec/active_storage require this.
require_relative 'rails_app'
require 'open3'
require 'rbconfig'

module ActiveStorageSpecHelpers
  WORKER = File.expand_path('worker.rb', __dir__)

  def self.migration = (@migration ||= ActiveStorageSpecApp.migrate!)

  def store_for(chat, **options) = RubyLLM::FileStore::ActiveStorage.new(chat, **options)

  def tools_for(store)
    RubyLLM::FileStore::Tools.for(store, tools: %i[read write edit delete]).to_h { |tool| [tool.name, tool] }
  end

  # Runs the worker in a new process: `ruby worker.rb command args...`;
  # returns its standard output, and fails the example when it fails.
  def run_worker(*args)
    out, err, status = Open3.capture3(RbConfig.ruby, WORKER, *args.map(&:to_s))
    raise "worker #{args.first} failed: #{err}#{out}" unless status.success?

    out
  end

  # Starts the worker in a new process; returns [pid, its output's path].
  def spawn_worker(*args)
    out = File.join(ActiveStorageSpecApp::DIR, "worker-#{SecureRandom.hex(4)}.out")
    pid = Process.spawn(RbConfig.ruby, WORKER, *args.map(&:to_s), out:, err: %i[child out])
    [pid, out]
  end

  def wait_worker(pid, out)
    _, status = Process.wait2(pid)
    raise "worker failed: #{File.read(out)}" unless status.success?

    File.read(out)
  end

  def blob_count = ActiveStorage::Blob.count
  def stored_files = ActiveStorageSpecApp.stored_files
end

RSpec.configure do |config|
  config.include ActiveStorageSpecHelpers
  config.before(:suite) { ActiveStorageSpecHelpers.migration }
  config.before do
    [RubyLLM::ActiveRecord::ChatFileVersion, RubyLLM::ActiveRecord::ChatFile, ActiveStorage::Attachment,
     ActiveStorage::Blob, Message, Chat, User].each(&:delete_all)
    ActiveStorageSpecApp.clear_storage!
  end
end
