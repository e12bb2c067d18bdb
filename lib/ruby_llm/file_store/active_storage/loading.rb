# frozen_string_literal: true

module RubyLLM
  class FileStore
    class ActiveStorage < FileStore
      # Loads the store's Rails parts (the ChatFile model, the HasChatFiles
      # concern) on first use, so the gem loads without Rails
      # (ActiveStorage.load_models!).
      module Loading # :nodoc:
        LOAD_LOCK = Mutex.new
        private_constant :LOAD_LOCK

        module_function

        # Loads the model and the concern; raises RubyLLM::ConfigurationError
        # saying what is missing when Rails, Active Record or Active Storage
        # is not loaded.
        def load!
          return if @loaded

          missing = missing_parts
          unless missing.empty?
            raise RubyLLM::ConfigurationError,
                  "RubyLLM::FileStore::ActiveStorage needs #{missing.join(' and ')}: in a Rails app, require " \
                  '"active_storage/engine" in config/application.rb, run bin/rails active_storage:install and ' \
                  'bin/rails generate ruby_llm:file_store:install, then bin/rails db:migrate'
          end
          LOAD_LOCK.synchronize do
            FileStores::Native::ActiveRecordModels.name!
            %i[ChatFile HasChatFiles].each { |name| ::RubyLLM::ActiveRecord.const_get(name) } # autoloads them
            @loaded = true
          end
        end

        # What the store needs and is not loaded, like ["Active Storage"].
        def missing_parts
          missing = []
          missing << 'Active Record' unless loadable?('ActiveRecord::Base')
          storage = loadable?('ActiveStorage::Blob') && loadable?('ActiveStorage::Attached::Model')
          missing << 'Active Storage' unless storage
          missing
        end

        # Whether +name+ is defined or its autoloader (Zeitwerk or classic) loads it.
        def loadable?(name)
          Object.const_get(name)
          true
        rescue NameError
          false
        end
      end
    end
  end
end
