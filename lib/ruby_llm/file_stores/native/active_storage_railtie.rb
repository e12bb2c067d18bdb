# frozen_string_literal: true

module RubyLLM
  module FileStores
    module Native
      # In a Rails app, names RubyLLM::ActiveRecord::ChatFile and
      # HasChatFiles for autoload, so initializers, to_prepare blocks and
      # models can name them (say, to encrypt the text column) before any
      # store is made. Nothing is loaded here: Active Storage's models are
      # Active Record models, and touching them while Active Record runs its
      # load hooks is a circular autoload on the classic autoloader and loads
      # ActiveStorage::Blob twice on Rails 7.2.
      class ActiveStorageRailtie < ::Rails::Railtie
        initializer 'ruby_llm_file_stores_native.active_storage' do
          ActiveRecordModels.name!
        end

        # bin/rails ruby_llm:file_store:purge_orphans [OLDER_THAN=seconds]
        rake_tasks do
          namespace :ruby_llm do
            namespace :file_store do
              desc 'Purges blobs RubyLLM::FileStore::ActiveStorage uploaded that nothing uses, older than ' \
                   'OLDER_THAN seconds (3600)'
              task purge_orphans: :environment do
                older_than = Float(ENV.fetch('OLDER_THAN', RubyLLM::FileStore::ActiveStorage::Orphans::GRACE))
                count = RubyLLM::FileStore::ActiveStorage.purge_orphans(older_than:)
                puts "Purged #{count} orphan blob#{'s' unless count == 1}."
              end
            end
          end
        end
      end
    end
  end
end
