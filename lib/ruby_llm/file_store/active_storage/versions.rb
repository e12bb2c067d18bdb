# frozen_string_literal: true

module RubyLLM
  class FileStore
    class ActiveStorage < FileStore
      # The history of a chat's files (history: true, or { keep:, keep_for: }):
      # a VersionLog over ruby_llm_chat_file_versions, each version holding
      # the blob its file had. Included by the store; private.
      module Versions
        HISTORY_REWIND = FileStores::Native::HistoryMethods.instance_method(:rewind)
        private_constant :HISTORY_REWIND

        # The history's rewind to a checkpoint (FileStore#rewind). The
        # store's StreamedWrites has a private rewind of its own, of an IO it
        # writes, which is what super is here: an IO goes there.
        def rewind(target = nil, to: nil)
          return super(target) if target.respond_to?(:read)

          HISTORY_REWIND.bind_call(self, target, to:)
        end

        private

        # The store's VersionLog for +option+, or nil without history.
        def version_log(option)
          return nil if option.nil? || option == false

          FileStores::Native::History.check_option(option)
          unless RubyLLM::ActiveRecord::ChatFileVersion.table?
            raise RubyLLM::ConfigurationError, 'history: needs the ruby_llm_chat_file_versions table: run bin/rails ' \
                                               'generate ruby_llm:file_store:upgrade, then bin/rails db:migrate'
          end

          VersionLog.new(@chat, **FileStores::Native::History.limits(option), given: option != true)
        end

        # keep_blob is a change too (a kept attachment, by :attachment): the
        # store prepends this, so it goes through the one recorder as write
        # does. Not in HistoryRecorder, since only this store keeps blobs.
        module KeptBlobs
          # Keeps +blob+ at +path+, recording the change in the history (see ActiveStorage#keep_blob).
          def keep_blob(path, ...)
            return super unless history_recording?

            history_change([FileStore.path(path)]) { super }
          end
        end

        # An owner's view sees its own versions.
        def history_owner = @owner && [@owner.class.polymorphic_name, @owner.id]

        # A version holds the blob the file has: nothing is copied or sent.
        # The file an owner's view has before its first change of a shared
        # file is the shared one, whose blob its first version holds.
        def history_keep_bytes(_log, path, _file, _written = nil)
          blob_id = ::ActiveStorage::Attachment.arel_table[:blob_id]
          at_paths(own_rows, path).joins(:file_attachment).pick(blob_id) ||
            (@owner && at_paths(visible_rows, path).joins(:file_attachment).pick(blob_id))
        end
      end
    end
  end
end
