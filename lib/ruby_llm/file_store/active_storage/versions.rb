# frozen_string_literal: true

module RubyLLM
  class FileStore
    class ActiveStorage < FileStore
      # The history of a chat's files (history: true, or { keep:, keep_for: }):
      # a VersionLog over ruby_llm_chat_file_versions, each version holding
      # the blob its file had.
      module Versions # :nodoc:
        module_function

        # The VersionLog of +chat+ for +option+, or nil without history.
        # Bounds given (a Hash) are kept with the chat; +true+ takes the
        # chat's kept bounds (VersionLimits).
        def log(chat, option)
          return nil if option.nil? || option == false

          FileStores::Native::History.check_option(option)
          unless RubyLLM::ActiveRecord::ChatFileVersion.table?
            raise RubyLLM::ConfigurationError, 'history: needs the ruby_llm_chat_file_versions table: run bin/rails ' \
                                               'generate ruby_llm:file_store:upgrade, then bin/rails db:migrate'
          end

          VersionLog.new(chat, **FileStores::Native::History.limits(option), given: option != true)
        end

        # The blob a version of the store's file at +path+ holds: the file's
        # own, so nothing is copied or sent. The file an owner's view has
        # before its first change of a shared file is the shared one, whose
        # blob its first version holds.
        def blob_id(rows, path)
          blob_id = ::ActiveStorage::Attachment.arel_table[:blob_id]
          rows.at_paths(rows.own, path).joins(:file_attachment).pick(blob_id) ||
            (rows.owner && rows.at_paths(rows.visible, path).joins(:file_attachment).pick(blob_id))
        end

        # path => the blob each of the store's files at +paths+ has, in one query.
        def blob_ids(rows, paths)
          rows.at_paths(rows.own, paths).joins(:file_attachment)
              .pluck(:path, ::ActiveStorage::Attachment.arel_table[:blob_id]).to_h
        end
      end
    end
  end
end
