# frozen_string_literal: true

module RubyLLM
  class FileStore
    class ChatFiles
      # The bytes of a URL attachment (RubyLLM::Attachment#url?) that a
      # chat keeps: fetched by UrlFetch within RubyLLM.config's settings
      # (see UrlSettings) and the store's own max_bytes when lower, and
      # left in the attachment (the shape's preload) so that ruby_llm does
      # not fetch the URL again, unbounded, where the provider needs bytes.
      # Bytes ruby_llm fetched already (to tell the type of a URL without
      # an extension, or to save a record's message) are used as they are.
      module UrlAttachment # :nodoc:
        module_function

        # The URL of +attachment+, or nil for any other attachment.
        def url(attachment)
          attachment.respond_to?(:url?) && attachment.url? ? attachment.source.to_s : nil
        end

        # The bytes of +attachment+, a URL one; nil for a read-only store,
        # which keeps nothing, so nothing is fetched for it. Raises
        # UrlFetch::Refused (logged) saying why they could not be had.
        def bytes(attachment, shape:, store:)
          return nil if store.read_only?

          loaded = shape.respond_to?(:loaded_content) ? shape.loaded_content(attachment) : nil
          return loaded if loaded.is_a?(String)

          bytes = UrlFetch.new(**FileStores::Native::UrlSettings.current, max_bytes: cap(store)).call(url(attachment))
          shape.preload(attachment, bytes) if shape.respond_to?(:preload)
          bytes
        rescue UrlFetch::Refused => e
          FileStores::Native.logger.warn("RubyLLM::FileStores: #{url(attachment)} not kept in the chat's files: " \
                                         "#{e.message}")
          raise
        end

        # The most bytes a URL is fetched for: the setting, or the store's
        # own max_bytes when that is lower.
        def cap(store)
          cap = FileStores::Native::UrlSettings.current[:max_bytes]
          own = store.respond_to?(:max_bytes) ? store.max_bytes : nil
          own.is_a?(Integer) ? [cap, own].min : cap
        end
      end
    end
  end
end
