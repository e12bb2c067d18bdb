# frozen_string_literal: true

module RubyLLM
  module ActiveRecord
    # What a chat model includes to keep files in Active Storage: its
    # ruby_llm_chat_files rows, destroyed with the chat (and their blobs,
    # unless a message's attachment still uses them).
    #
    #   class Chat < ApplicationRecord
    #     include RubyLLM::ActiveRecord::HasChatFiles
    #   end
    #
    #   RubyLLM::FileStore::ActiveStorage.new(chat)
    module HasChatFiles
      def self.included(model)
        model.has_many :ruby_llm_chat_files, class_name: 'RubyLLM::ActiveRecord::ChatFile', as: :chat,
                                             dependent: :destroy, inverse_of: :chat
      end
    end
  end
end
