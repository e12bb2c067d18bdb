# frozen_string_literal: true

# A one-file Rails application for the Active Storage store's specs, on the
# database DATABASE_URL names (SQLite or PostgreSQL; bin/test-active-storage
# sets it), with Active Storage's Disk service in RUBY_LLM_AS_DIR, or its S3
# service on the S3 server RUBY_LLM_AS_S3_ENDPOINT names (a local one that
# bin/test-active-storage starts; the bucket is RUBY_LLM_AS_S3_BUCKET). Worker
# processes load it too, to act on the same chats; RUBY_LLM_AS_AUTOLOADER=classic
# boots theirs on the classic autoloader (Rails 6).
require 'tmpdir'
require 'logger'
require 'rails'
require 'active_record/railtie'
require 'active_job/railtie'
require 'active_storage/engine'

# RUBY_LLM_AS_LIB loads another build's lib (rake bench measures the old one beside this one).
$LOAD_PATH.unshift(ENV.fetch('RUBY_LLM_AS_LIB', File.expand_path('../../../lib', __dir__)))
require 'ruby_llm/file_stores/native'

module ActiveStorageSpecApp
  DIR = ENV['RUBY_LLM_AS_DIR'] ||= Dir.mktmpdir('ruby_llm_as')
  STORAGE = File.join(DIR, 'storage')
  ENV['DATABASE_URL'] ||= "sqlite3:#{File.join(DIR, 'test.sqlite3')}"
  S3_ENDPOINT = ENV.fetch('RUBY_LLM_AS_S3_ENDPOINT', nil)

  def self.s3? = !S3_ENDPOINT.nil?

  # The Disk service in STORAGE, or S3 on the local server, path-style, with
  # the credentials any local server takes, as the README advises: uploading
  # in one request up to S3's 5 GB, since aws-sdk-s3's multipart upload
  # buffers its parts in memory (a 220 MB file grew the process by 168 MB);
  # and, with an aws-sdk-s3 that checksums every request body by default
  # (sid's), checksumming only when S3 requires it, since over http it reads
  # the body a megabyte String at a time first (a 167 MB write grew by 85.7
  # MB, not 16.4); Active Storage's Content-MD5 still checks the upload.
  def self.service_configuration
    return { 'service' => 'Disk', 'root' => STORAGE } unless s3?

    { 'service' => 'S3', 'endpoint' => S3_ENDPOINT, 'force_path_style' => true, 'region' => 'us-east-1',
      'access_key_id' => 'spec', 'secret_access_key' => 'spec',
      'bucket' => ENV.fetch('RUBY_LLM_AS_S3_BUCKET', 'ruby-llm-specs'),
      'upload' => { 'multipart_threshold' => 5 << 30 } }.merge(checksum_when_required)
  end

  def self.checksum_when_required
    require 'aws-sdk-s3'
    known = Aws::S3::Client.new(stub_responses: true).config.respond_to?(:request_checksum_calculation)
    known ? { 'request_checksum_calculation' => 'when_required' } : {}
  end

  # The application.
  class Application < Rails::Application
    config.load_defaults Rails::VERSION::STRING.to_f
    config.autoloader = :classic if ENV['RUBY_LLM_AS_AUTOLOADER'] == 'classic'
    config.root = ActiveStorageSpecApp::DIR
    config.eager_load = false
    config.logger = Logger.new(ENV['RUBY_LLM_AS_LOG'] || File::NULL)
    config.secret_key_base = 'spec'
    config.active_job.queue_adapter = :inline
    config.active_storage.service = :spec
    config.active_storage.service_configurations = { 'spec' => ActiveStorageSpecApp.service_configuration }
  end

  def self.postgresql? = ENV.fetch('DATABASE_URL').start_with?('postgres')
end

ActiveStorageSpecApp::Application.initialize!
RubyLLM::FileStore::ActiveStorage.load_models!

# The app's models: a chat with messages that have attachments, and users.
class Chat < ActiveRecord::Base
  include RubyLLM::ActiveRecord::HasChatFiles
  has_many :messages, dependent: :destroy
end

class Message < ActiveRecord::Base
  belongs_to :chat
  has_many_attached :attachments
end

class User < ActiveRecord::Base; end

module ActiveStorageSpecApp
  module_function

  # Makes the tables: Active Storage's, the app's, and ruby_llm_chat_files
  # through the migration `rails generate ruby_llm:file_store:install`
  # writes. Returns that migration's path.
  def migrate!
    ActiveRecord::Migration.verbose = false
    connection = ActiveRecord::Base.connection
    connection.tables.each { |table| connection.drop_table(table, force: :cascade) }
    run_migration(File.join(Gem.loaded_specs.fetch('activestorage').full_gem_path,
                            'db/migrate/20170806125915_create_active_storage_tables.rb'))
    ActiveRecord::Schema.define do
      create_table(:chats) { |t| t.string :title }
      create_table(:users) { |t| t.string :name }
      create_table(:messages) { |t| t.references :chat }
    end
    migration = generate_migration
    run_migration(migration)
    run_migration(versions_migration)
    [Chat, Message, User, RubyLLM::ActiveRecord::ChatFile, RubyLLM::ActiveRecord::ChatFileVersion,
     ActiveStorage::Blob].each(&:reset_column_information)
    migration
  end

  def generate_migration
    require 'rails/generators'
    destination = File.join(DIR, 'generated')
    FileUtils.rm_rf(destination)
    Rails::Generators.invoke('ruby_llm:file_store:install', ['--quiet'], destination_root: destination)
    Dir[File.join(destination, 'db/migrate/*_create_ruby_llm_chat_files.rb')].first ||
      raise('the generator wrote no migration')
  end

  # The history's migration the install generator wrote beside the files'.
  def versions_migration
    Dir[File.join(DIR, 'generated', 'db/migrate/*_create_ruby_llm_chat_file_versions.rb')].first ||
      raise('the generator wrote no migration of ruby_llm_chat_file_versions')
  end

  def run_migration(path)
    load path
    name = File.basename(path, '.rb').sub(/\A\d+_/, '').camelize
    Object.const_get(name).migrate(:up)
  end

  # Every file the service holds: under the Disk service's folder, or the
  # bucket's keys.
  def stored_files
    return bucket.objects.map(&:key).sort if s3?

    Dir.glob(File.join(STORAGE, '**/*')).select { |path| File.file?(path) }
  end

  # Empties the service: the Disk folder, or the bucket (made when missing).
  def clear_storage!
    return FileUtils.rm_rf(STORAGE) unless s3?

    bucket.exists? ? bucket.objects.batch_delete! : bucket.create
  end

  def bucket = ActiveStorage::Blob.service.bucket
end
