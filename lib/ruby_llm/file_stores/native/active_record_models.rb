# frozen_string_literal: true

module RubyLLM
  module FileStores
    module Native
      # Names the Active Storage store's model and concern
      # (RubyLLM::ActiveRecord::ChatFile and HasChatFiles) for Ruby's
      # autoload: they load when first named, by the store or by the app (an
      # initializer, a to_prepare block, a model including HasChatFiles),
      # never while Active Record or Active Storage is still loading.
      module ActiveRecordModels
        DIR = File.expand_path('../../active_record', __dir__)

        # Registers the autoloads; loads nothing.
        def self.name!
          ::RubyLLM.const_set(:ActiveRecord, Module.new) unless ::RubyLLM.const_defined?(:ActiveRecord, false)
          ::RubyLLM::ActiveRecord.autoload(:ChatFile, File.join(DIR, 'chat_file'))
          ::RubyLLM::ActiveRecord.autoload(:ChatFileVersion, File.join(DIR, 'chat_file_version'))
          ::RubyLLM::ActiveRecord.autoload(:HasChatFiles, File.join(DIR, 'has_chat_files'))
        end
      end
    end
  end
end
