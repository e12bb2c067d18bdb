# frozen_string_literal: true

module RubyLLM
  module Generators
    # The migration of ruby_llm_chat_file_versions, the history of a chat's
    # files (RubyLLM::FileStore::ActiveStorage made with history:), which
    # both the install and the upgrade generator write: a row per version,
    # holding the blob the file had. It skips a table already there.
    module VersionsMigration
      NAME = 'create_ruby_llm_chat_file_versions'

      module_function

      # The migration's text, for a migration of +version+ (like 7.2) and
      # keys of +key_type+ (nil: the default).
      def text(version, key_type)
        type = key_type ? ", type: :#{key_type}" : ''
        id = key_type ? ", id: :#{key_type}" : ''
        <<~RUBY
          # frozen_string_literal: true

          # The history of persisted chats' files (RubyLLM::FileStore::ActiveStorage
          # made with history:): one row per version, holding the blob the file had
          # (a kept version's blob is never purged). kind is what the change did,
          # made_by what made it, forgotten a version past keep: or keep_for:.
          class #{NAME.camelize} < ActiveRecord::Migration[#{version}]
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

      # The type of primary keys the generator's +options+ or the app's
      # generators name, or nil.
      def key_type(options)
        options[:primary_key_type] ||
          ::Rails.application&.config&.generators&.options&.dig(:active_record, :primary_key_type)
      end

      # The number of the migration written after the one numbered +number+
      # in the same second.
      def next_number(number) = (number.to_i + 1).to_s
    end
  end
end
