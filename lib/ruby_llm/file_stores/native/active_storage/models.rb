# frozen_string_literal: true

module RubyLLM
  # Names the Active Storage store's model and concern for Ruby's autoload:
  # they load when first named, by the store or by the app (an initializer,
  # a to_prepare block, a model including HasChatFiles), never while Active
  # Record or Active Storage is still loading.
  module ActiveRecord
    autoload :ChatFile, File.expand_path('chat_file', __dir__)
    autoload :HasChatFiles, File.expand_path('has_chat_files', __dir__)
  end
end
