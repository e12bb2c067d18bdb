# frozen_string_literal: true

module RubyLLM
  module FileStores
    module Native
      # The event a store's write raises, for whoever listens in the same
      # thread or fiber (a chat running a tool, for after_file_write).
      # RubyLLM::FileStore puts it in front of every subclass as the subclass
      # is defined, so a store's write announces the file it wrote however
      # the store implements it.
      #
      #   result, written = WriteEvents.listen(store) { tool.call(arguments) }
      module WriteEvents
        KEY = :ruby_llm_file_store_writes
        private_constant :KEY

        def write(...)
          file = super
          Thread.current[KEY]&.push([self, file])
          file
        end

        # The files write_many saved are announced too (a store's own batch
        # need not call write; listen keeps each path once).
        def write_many(...)
          saved, unsaved, error = super
          writes = Thread.current[KEY]
          saved.each { |file| writes.push([self, file]) } if writes
          [saved, unsaved, error]
        end

        # A move announces the files at their new paths: the conversation
        # wrote them there (a copying move's writes are announced too; listen
        # keeps each path once).
        def move(...)
          moved = super
          writes = Thread.current[KEY]
          (moved.is_a?(Array) ? moved : [moved]).each { |file| writes.push([self, file]) } if writes
          moved
        end

        # Runs the block and returns its value and the files that +store+
        # wrote meanwhile in this thread or fiber, the last write of each
        # path once.
        def self.listen(store)
          outer = Thread.current[KEY]
          writes = []
          Thread.current[KEY] = writes
          result = yield
          files = writes.filter_map { |writer, file| file if writer.equal?(store) }
          [result, files.reverse.uniq(&:path).reverse]
        ensure
          Thread.current[KEY] = outer
        end
      end
    end
  end
end
