# frozen_string_literal: true

module RubyLLM
  module FileStores
    module Native
      # In a Rails app, loads RubyLLM::ActiveRecord::ChatFile and HasChatFiles
      # with Active Record, so initializers and models can name them (say, to
      # encrypt the text column) before any store is made.
      class ActiveStorageRailtie < ::Rails::Railtie
        initializer 'ruby_llm_file_stores_native.active_storage' do
          ActiveSupport.on_load(:active_record) do
            store = RubyLLM::FileStore::ActiveStorage
            store.load_models! if store.missing_parts.empty?
          end
        end
      end
    end
  end
end
