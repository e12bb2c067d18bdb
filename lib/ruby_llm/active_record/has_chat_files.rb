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
        model.has_many :ruby_llm_chat_file_versions, lambda {
                                                       order(:id)
                                                     }, class_name: 'RubyLLM::ActiveRecord::ChatFileVersion',
                                                        as: :chat, inverse_of: :chat
        # The versions go with the chat; the blobs only they held are then
        # attached to nothing, for purge_orphans.
        model.before_destroy do
          versions = RubyLLM::ActiveRecord::ChatFileVersion
          versions.where(chat: self).delete_all if versions.table?
        end
      end
    end
  end
end
