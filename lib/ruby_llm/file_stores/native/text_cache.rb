# frozen_string_literal: true

module RubyLLM
  module FileStores
    module Native
      # The texts a store's converters made, kept in memory by file digest and
      # bounded by their total size: the least recently used go first. Thread
      # safe.
      class TextCache
        DEFAULT_MAX_BYTES = 64 * 1024 * 1024

        def initialize(max_bytes: DEFAULT_MAX_BYTES)
          @max_bytes = max_bytes
          @texts = {}
          @bytes = 0
          @mutex = Mutex.new
        end

        def [](key)
          @mutex.synchronize do
            text = @texts.delete(key)
            @texts[key] = text unless text.nil?
            text
          end
        end

        def []=(key, text)
          @mutex.synchronize do
            old = @texts.delete(key)
            @bytes -= old.bytesize if old
            next if text.nil? || text.bytesize > @max_bytes

            @texts[key] = text
            @bytes += text.bytesize
            evict
          end
        end

        def size
          @mutex.synchronize { @texts.size }
        end

        private

        def evict
          while @bytes > @max_bytes
            _key, text = @texts.first
            @texts.delete(@texts.first[0])
            @bytes -= text.bytesize
          end
        end
      end
    end
  end
end
