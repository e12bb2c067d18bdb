# frozen_string_literal: true

require 'digest'

module RubyLLM
  class FileStore
    class ChatFiles
      # Which Active Storage blob an attachment already is, so a store that
      # can keep a blob as it is (the Active Storage store's keep_blob)
      # shares it instead of uploading a second copy:
      #
      # - an attachment made from a blob, an ActiveStorage::Attachment or
      #   a has_one_attached (ruby_llm's Attachment#active_storage?) is that
      #   blob; from a has_many_attached, its first blob, the one ruby_llm
      #   sends;
      # - any other attachment of a persisted message is the blob ruby_llm
      #   uploaded for the message record: the one with its file name, size
      #   and checksum (see pair).
      #
      # Plain Ruby: it names Active Storage only when it is loaded.
      module AttachmentBlobs # :nodoc:
        module_function

        # The saved blob +attachment+ was made from, or nil.
        def of(attachment)
          return nil unless attachment.respond_to?(:active_storage?) && attachment.active_storage?

          source = attachment.source
          blob = if blob?(source) then source
                 elsif source.respond_to?(:blobs) then source.blobs.first
                 elsif source.respond_to?(:blob) then source.blob
                 end
          saved?(blob) ? blob : nil
        end

        # Pairs each of +attachments+ with its blob among +blobs+ (a message
        # record's, just attached): the blob it was made from, or else an
        # unclaimed blob with its file name, byte size and checksum. An
        # attachment with no blob is left out. Returns [[attachment, blob]].
        def pair(attachments, blobs)
          unclaimed = blobs.to_a.dup
          attachments.filter_map do |attachment|
            blob = of(attachment) || claim(unclaimed, attachment)
            [attachment, blob] if blob
          end
        end

        # Whether +error+ says a blob's file is not on its service yet (its
        # upload waits for a transaction to commit): the bytes are written
        # as a file of their own then.
        def missing_file?(error)
          defined?(::ActiveStorage::FileNotFoundError) && error.is_a?(::ActiveStorage::FileNotFoundError)
        end

        # Whether +object+ is an ActiveStorage::Blob.
        def blob?(object)
          defined?(::ActiveStorage::Blob) && object.is_a?(::ActiveStorage::Blob)
        end

        def saved?(blob)
          blob?(blob) && blob.persisted?
        end

        # Active Storage's checksum of +bytes+: MD5 in Base64, or the
        # digest the application configured (Rails 7.1+).
        def checksum(bytes)
          digest = defined?(::ActiveStorage) && ::ActiveStorage.respond_to?(:checksum_implementation) &&
                   ::ActiveStorage.checksum_implementation
          (digest || Digest::MD5).base64digest(bytes)
        end

        def claim(unclaimed, attachment)
          return nil if attachment.respond_to?(:provider_file?) && attachment.provider_file?

          bytes = attachment.content
          return nil unless bytes.is_a?(String)

          name = attachment.filename.to_s
          sum = nil
          index = unclaimed.index do |blob|
            next false unless blob.filename.to_s == name && blob.byte_size == bytes.bytesize

            (sum ||= checksum(bytes)) == blob.checksum
          end
          index && unclaimed.delete_at(index)
        end
      end
    end
  end
end
