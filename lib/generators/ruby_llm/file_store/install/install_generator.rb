# frozen_string_literal: true

require 'rails/generators'
require 'rails/generators/active_record'
require_relative '../versions_migration'

module RubyLLM
  module Generators
    # `bin/rails generate ruby_llm:file_store:install` writes the migration
    # for ruby_llm_chat_files, the table of RubyLLM::FileStore::ActiveStorage:
    # one row per file of a chat, its bytes in Active Storage; and the one
    # for ruby_llm_chat_file_versions, their history (VersionsMigration).
    class FileStoreInstallGenerator < ::Rails::Generators::Base
      include ::ActiveRecord::Generators::Migration
      include VersionsMigration

      namespace 'ruby_llm:file_store:install'
      desc 'Creates the migration for ruby_llm_chat_files, where persisted chats keep their files ' \
           '(RubyLLM::FileStore::ActiveStorage). Run bin/rails active_storage:install first if your app ' \
           'has no Active Storage tables.'

      def create_migration_file = write_migrations('create_ruby_llm_chat_files', migration)

      def show_next_step
        say 'Next: bin/rails db:migrate. A chat model includes RubyLLM::ActiveRecord::HasChatFiles ' \
            '(acts_as_chat does it with ruby_llm).'
      end

      private

      def migration
        id = key_type ? ", id: :#{key_type}" : ''
        type = key_type ? ", type: :#{key_type}" : ''
        <<~RUBY
          # frozen_string_literal: true

          # The files of persisted chats (RubyLLM::FileStore::ActiveStorage): one
          # row per file, its bytes attached with Active Storage. text keeps what a
          # converter made of the file, read_digest the digest of what the model
          # last read, attachment_key the chat attachment it was kept for. A file of
          # an owner shadows the chat's file at the same path. The unique index
          # holds path_digest, the path's SHA-256: a path may be 4,000 bytes, more
          # than PostgreSQL's index row holds.
          class #{'create_ruby_llm_chat_files'.camelize} < ActiveRecord::Migration[#{::ActiveRecord::Migration.current_version}]
            def change
              create_table :ruby_llm_chat_files#{id} do |t|
                t.references :chat, polymorphic: true, null: false, index: false#{type}
                t.string :path, null: false
                t.string :path_digest, limit: 64, null: false
                t.references :owner, polymorphic: true, null: true, index: true#{type}
                t.string :content_type, null: false
                t.bigint :byte_size, null: false
                t.string :digest, limit: 64
                # MySQL's text holds 64 KB; a converted PDF can hold more.
                t.text :text, limit: (4_294_967_295 if connection.adapter_name.match?(/mysql|trilogy/i))
                t.string :read_digest, limit: 64
                # Which chat attachment the file was kept for (its name and digest, hashed).
                t.string :attachment_key, limit: 64
                t.timestamps
              end
              add_index :ruby_llm_chat_files, %i[chat_type chat_id owner_type owner_id path_digest],
                        unique: true, name: 'index_ruby_llm_chat_files_on_chat_owner_path_digest'
            end
          end
        RUBY
      end
    end
  end
end
