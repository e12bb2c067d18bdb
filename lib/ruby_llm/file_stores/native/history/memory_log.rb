# frozen_string_literal: true

module RubyLLM
  module FileStores
    module Native
      module History
        # The history of a Memory store: the versions' bytes in memory, one
        # frozen String per digest, for as long as the store lives.
        class MemoryLog < Log
          def initialize(keep:, keep_for:, max_version_bytes: nil)
            super
            @bytes = {}
          end

          # The bytes of +record+; raises RubyLLM::FileNotFoundError when they
          # are not kept.
          def bytes(record)
            @bytes.fetch(record.digest) do
              raise RubyLLM::FileNotFoundError, "version #{record.id} of #{record.path} is no longer kept"
            end.dup
          end

          def bytes?(digest) = @bytes.key?(digest)

          # Keeps +bytes+, a frozen String of +digest+'s bytes that no one
          # changes (a Memory store's own), as they are: no copy.
          def share(digest, bytes)
            raise ArgumentError, 'the bytes shared with a history must be frozen' unless bytes.frozen?

            @bytes[digest] ||= bytes
          end

          # Nothing to say where: the history is in memory.
          def inspect = "#<#{self.class.name} #{@records.size} files>"

          private

          def keep_bytes(digest)
            sink = String.new(encoding: Encoding::BINARY)
            yield sink
            @bytes[digest] = sink.freeze
          end

          def drop_bytes(digest)
            @bytes.delete(digest)
          end
        end
      end
    end
  end
end
