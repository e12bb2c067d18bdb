# frozen_string_literal: true

module RubyLLM
  module FileStores
    module Native
      # Which file a chat kept each attachment as (see
      # FileStore::ChatFiles::Keeper#keep_attachment), part of StoreMethods.
      module AttachmentMemory
        # The path of the file a chat kept an attachment as, by the
        # attachment's key (see FileStore::ChatFiles::Keeper.attachment_key), or nil. A chat
        # loaded again shows its earlier attachments under the same names,
        # even after the model changed those files. This default remembers
        # for as long as the store object lives; a store that keeps its files
        # elsewhere keeps this with them (the Active Storage store, in the
        # file's row).
        def attachment_path(key)
          state = file_store_state
          state.fetch(:mutex).synchronize { state.fetch(:attachments)[key] }
        end

        # Remembers that the attachment with +key+ was kept at +path+.
        def remember_attachment(key, path)
          state = file_store_state
          path = RubyLLM::FileStore.path(path)
          state.fetch(:mutex).synchronize { state.fetch(:attachments)[key] = path }
        end
      end
    end
  end
end
