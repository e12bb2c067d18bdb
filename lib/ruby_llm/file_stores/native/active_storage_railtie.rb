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
      end
    end
  end
end
