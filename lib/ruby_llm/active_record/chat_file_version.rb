# frozen_string_literal: true

module RubyLLM
  module ActiveRecord
    # One version of a chat's file: a row in ruby_llm_chat_file_versions (made
    # by `rails generate ruby_llm:file_store:install`, or :upgrade for an
    # older install), written by RubyLLM::FileStore::ActiveStorage made with
    # history:. Its bytes are a blob the chat's files had: a version holds
    # the blob, so neither a file's replacement nor purge_orphans purges it
    # while the version is kept. A forgotten version (past keep: or
    # keep_for:) lets its blob go. A row of kind checkpoint keeps a
    # question's checkpoint, and one of kind limits the chat's keep: and
    # keep_for: (RubyLLM::FileStore::ActiveStorage::VersionLimits).
    #
    #   chat.ruby_llm_chat_file_versions # with HasChatFiles, newest last
    class ChatFileVersion < ::ActiveRecord::Base
      self.table_name = 'ruby_llm_chat_file_versions'

      belongs_to :chat, polymorphic: true
      belongs_to :owner, polymorphic: true, optional: true
      belongs_to :blob, class_name: 'ActiveStorage::Blob', optional: true

      # Whether the table is there (an app that has not run the upgrade
      # generator has none; the store says so when history: asks for it).
      def self.table?
        @table = table_exists? unless defined?(@table) && @table
        @table
      end

      # +blobs+ (an ActiveStorage::Blob relation) without those a kept
      # version holds: what a purge may remove.
      def self.unheld(blobs)
        return blobs unless table?

        blobs.where.not(id: where.not(blob_id: nil).select(:blob_id))
      end

      # The digest path_digest keeps for +path+: ChatFile's, one index rule for both tables.
      def self.path_digest(path) = ChatFile.path_digest(path)
    end
  end
end
