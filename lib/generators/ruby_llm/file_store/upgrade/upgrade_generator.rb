# frozen_string_literal: true

require 'rails/generators'
require 'rails/generators/active_record'
require_relative '../versions_migration'

module RubyLLM
  module Generators
    # `bin/rails generate ruby_llm:file_store:upgrade` writes the migration
    # that brings a ruby_llm_chat_files table made by an older install
    # generator up to date: it adds path_digest (the path's SHA-256, hex),
    # fills it in, and moves the unique index from the path onto it, since
    # a path may be 4,000 bytes and PostgreSQL's index row holds at most
    # 2,704 (a longer path raised PG::ProgramLimitExceeded). The migration
    # skips what the table already has, so running it twice is harmless. It
    # also writes the migration of ruby_llm_chat_file_versions, the files'
    # history (VersionsMigration), which skips a table already there.
    class FileStoreUpgradeGenerator < ::Rails::Generators::Base
      include ::ActiveRecord::Generators::Migration
      include VersionsMigration

      namespace 'ruby_llm:file_store:upgrade'
      desc 'Creates the migration that adds path_digest to ruby_llm_chat_files and moves its unique index onto ' \
           'it, and the one that makes ruby_llm_chat_file_versions, the files\' history ' \
           '(RubyLLM::FileStore::ActiveStorage, tables made by an older install generator).'

      def create_migration_file = write_migrations('add_path_digest_to_ruby_llm_chat_files', migration)

      def show_next_step
        say 'Next: bin/rails db:migrate.'
      end

      private

      def migration
        <<~RUBY
          # frozen_string_literal: true

          require 'digest'

          # ruby_llm_chat_files' unique index on chat, owner and path_digest (the
          # path's SHA-256) rather than the path, which may be longer than
          # PostgreSQL's index row holds.
          class #{'add_path_digest_to_ruby_llm_chat_files'.camelize} < ActiveRecord::Migration[#{::ActiveRecord::Migration.current_version}]
            OLD_INDEX = 'index_ruby_llm_chat_files_on_chat_owner_path'
            NEW_INDEX = 'index_ruby_llm_chat_files_on_chat_owner_path_digest'

            # The table alone, without the gem's model and its callbacks.
            class Row < ActiveRecord::Base
              self.table_name = 'ruby_llm_chat_files'
            end

            def up
              add_column :ruby_llm_chat_files, :path_digest, :string, limit: 64 unless column_exists?(:ruby_llm_chat_files, :path_digest)
              Row.reset_column_information
              Row.where(path_digest: nil).in_batches(of: 1000) do |batch|
                batch.pluck(:id, :path).each do |id, path|
                  Row.where(id:).update_all(path_digest: Digest::SHA256.hexdigest(path))
                end
              end
              change_column_null :ruby_llm_chat_files, :path_digest, false
              unless index_name_exists?(:ruby_llm_chat_files, NEW_INDEX)
                add_index :ruby_llm_chat_files, %i[chat_type chat_id owner_type owner_id path_digest], unique: true, name: NEW_INDEX
              end
              remove_index :ruby_llm_chat_files, name: OLD_INDEX if index_name_exists?(:ruby_llm_chat_files, OLD_INDEX)
            end

            def down
              unless index_name_exists?(:ruby_llm_chat_files, OLD_INDEX)
                add_index :ruby_llm_chat_files, %i[chat_type chat_id owner_type owner_id path], unique: true, name: OLD_INDEX
              end
              remove_index :ruby_llm_chat_files, name: NEW_INDEX if index_name_exists?(:ruby_llm_chat_files, NEW_INDEX)
              remove_column :ruby_llm_chat_files, :path_digest
            end
          end
        RUBY
      end
    end
  end
end
