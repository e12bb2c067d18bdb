# frozen_string_literal: true

require_relative 'support/active_storage_helper'

RSpec.describe 'rails generate ruby_llm:file_store:install' do
  let(:connection) { ActiveRecord::Base.connection }

  it 'writes the migration for ruby_llm_chat_files, which ran for these specs' do
    source = File.read(ActiveStorageSpecHelpers.migration)
    expect(File.basename(ActiveStorageSpecHelpers.migration)).to match(/\A\d{14}_create_ruby_llm_chat_files\.rb\z/)
    version = ActiveRecord::Migration.current_version
    expect(source).to include('create_table :ruby_llm_chat_files', "ActiveRecord::Migration[#{version}]")
    columns = connection.columns(:ruby_llm_chat_files).to_h { |column| [column.name, column] }
    expect(columns.keys).to include('chat_type', 'chat_id', 'path', 'owner_type', 'owner_id', 'content_type',
                                    'byte_size', 'digest', 'text', 'read_digest', 'created_at', 'updated_at',
                                    'path_digest')
    expect(columns.fetch('text').type).to eq(:text)
    expect(columns.fetch('owner_id').null).to be(true)
    expect(columns.fetch('chat_id').null).to be(false)
    index = connection.indexes(:ruby_llm_chat_files)
                      .find { |i| i.name == 'index_ruby_llm_chat_files_on_chat_owner_path_digest' }
    expect(index).to have_attributes(unique: true, columns: %w[chat_type chat_id owner_type owner_id path_digest])
    expect(columns.fetch('path_digest').null).to be(false)
  end

  it 'refuses a second row for one owner and path' do
    chat = Chat.create!
    user = User.create!
    row = { chat:, owner: user, path: 'a.md', content_type: 'text/markdown', byte_size: 1 }
    RubyLLM::ActiveRecord::ChatFile.create!(row)
    expect { RubyLLM::ActiveRecord::ChatFile.create!(row) }.to raise_error(ActiveRecord::RecordNotUnique)
  end

  describe 'rails generate ruby_llm:file_store:upgrade' do
    # The table as the install generator made it before path_digest.
    def make_table_old
      connection.remove_index :ruby_llm_chat_files, name: 'index_ruby_llm_chat_files_on_chat_owner_path_digest'
      connection.remove_column :ruby_llm_chat_files, :path_digest
      connection.add_index :ruby_llm_chat_files, %i[chat_type chat_id owner_type owner_id path],
                           unique: true, name: 'index_ruby_llm_chat_files_on_chat_owner_path'
      RubyLLM::ActiveRecord::ChatFile.reset_column_information
    end

    def upgrade
      require 'rails/generators'
      destination = File.join(ActiveStorageSpecApp::DIR, 'upgrade')
      FileUtils.rm_rf(destination)
      Rails::Generators.invoke('ruby_llm:file_store:upgrade', ['--quiet'], destination_root: destination)
      migration = Dir[File.join(destination, 'db/migrate/*_add_path_digest_to_ruby_llm_chat_files.rb')].first
      ActiveStorageSpecApp.run_migration(migration)
      RubyLLM::ActiveRecord::ChatFile.reset_column_information
    end

    after do
      RubyLLM::ActiveRecord::ChatFile.reset_column_information
      next if RubyLLM::ActiveRecord::ChatFile.path_digests?

      ActiveStorageSpecApp.migrate! # leave the table as the other examples expect it
    end

    it 'moves an older table onto path_digest, keeping its files, and long paths work after it' do
      chat = Chat.create!
      make_table_old
      store = store_for(chat)
      store.write('notes/plan.md', "# Plan\n")
      upgrade
      indexes = connection.indexes(:ruby_llm_chat_files).map(&:name)
      expect(indexes).to include('index_ruby_llm_chat_files_on_chat_owner_path_digest')
      expect(indexes).not_to include('index_ruby_llm_chat_files_on_chat_owner_path')
      expect(RubyLLM::ActiveRecord::ChatFile.pluck(:path_digest)).to eq([Digest::SHA256.hexdigest('notes/plan.md')])
      long = Array.new(14) { SecureRandom.alphanumeric(248) }.join('/')
      store.write(long, "long\n")
      store.write('notes/plan.md', "# Plan 2\n")
      expect([store.read('notes/plan.md'), store.read(long), store.list.size]).to eq(["# Plan 2\n", "long\n", 2])
    end
  end

  it 'takes --primary-key-type for apps with uuid keys' do
    require 'rails/generators'
    destination = File.join(ActiveStorageSpecApp::DIR, 'uuid')
    Rails::Generators.invoke('ruby_llm:file_store:install', ['--quiet', '--primary-key-type=uuid'],
                             destination_root: destination)
    source = File.read(Dir[File.join(destination, 'db/migrate/*.rb')].first)
    expect(source).to include('create_table :ruby_llm_chat_files, id: :uuid',
                              't.references :chat, polymorphic: true, null: false, index: false, type: :uuid')
  end
end

RSpec.describe RubyLLM::FileStore::ActiveStorage, 'without Rails' do
  it 'loads with the gem and raises RubyLLM::ConfigurationError saying what is missing' do
    lib = File.expand_path('../../lib', __dir__)
    script = <<~RUBY
      require 'ruby_llm/file_stores/native'
      abort 'Rails was loaded' if defined?(Rails) || defined?(ActiveRecord)
      begin
        RubyLLM::FileStore::ActiveStorage.new(Object.new)
      rescue RubyLLM::ConfigurationError => e
        puts e.message
      end
    RUBY
    out, status = Open3.capture2e(RbConfig.ruby, '-I', lib, '-e', script)
    expect(status).to be_success
    expect(out).to include('needs Active Record and Active Storage', 'bin/rails generate ruby_llm:file_store:install')
  end
end
