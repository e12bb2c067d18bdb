# frozen_string_literal: true

module RubyLLM
  module Generators
    # What the install and the upgrade generator share: the
    # --primary-key-type option, and writing their own migration followed by
    # that of ruby_llm_chat_file_versions, the history of a chat's files
    # (RubyLLM::FileStore::ActiveStorage made with history:): a row per
    # version, holding the blob the file had. It skips a table already there.
    module VersionsMigration
      NAME = 'create_ruby_llm_chat_file_versions'

      def self.included(generator)
        generator.class_option :primary_key_type, type: :string, desc: 'The type of primary keys, like uuid'
      end

      private

      # Writes the generator's own migration, +name+ with +text+, and the
      # versions migration numbered after it (the same second).
      def write_migrations(name, text)
        number = self.class.next_migration_number(File.join(destination_root, 'db/migrate'))
        create_file "db/migrate/#{number}_#{name}.rb", text
        create_file "db/migrate/#{number.to_i + 1}_#{NAME}.rb", versions_migration
      end

      # The type of primary keys the --primary-key-type option or the app's
      # generators name, or nil.
      def key_type
        options[:primary_key_type] ||
          ::Rails.application&.config&.generators&.options&.dig(:active_record, :primary_key_type)
      end

      def versions_migration
        type = key_type ? ", type: :#{key_type}" : ''
        id = key_type ? ", id: :#{key_type}" : ''
        <<~RUBY
          # frozen_string_literal: true

          # The history of persisted chats' files (RubyLLM::FileStore::ActiveStorage
          # made with history:): one row per version, holding the blob the file had
          # (a kept version's blob is never purged). kind is what the change did,
          # made_by what made it, forgotten a version past keep: or keep_for:.
          class #{NAME.camelize} < ActiveRecord::Migration[#{::ActiveRecord::Migration.current_version}]
            def change
              return if table_exists?(:ruby_llm_chat_file_versions)

              create_table :ruby_llm_chat_file_versions#{id} do |t|
                t.references :chat, polymorphic: true, null: false, index: false#{type}
                t.references :owner, polymorphic: true, null: true, index: false#{type}
                t.string :path, null: false
                t.string :path_digest, limit: 64, null: false
                t.string :kind, limit: 16, null: false
                t.string :digest, limit: 64
                t.bigint :byte_size, null: false, default: 0
                t.string :content_type
                t.string :made_by
                t.boolean :baseline, null: false, default: false
                t.boolean :forgotten, null: false, default: false
                t.references :blob, null: true, index: true#{type}
                # A row of kind checkpoint keeps a question's checkpoint (the id
                # of the newest version then), its path the message's key.
                t.bigint :checkpoint_id
                t.datetime :created_at, null: false
              end
              add_index :ruby_llm_chat_file_versions, %i[chat_type chat_id owner_type owner_id path_digest id],
                        name: 'index_ruby_llm_chat_file_versions_on_chat_owner_path'
            end
          end
        RUBY
      end
    end
  end
end
