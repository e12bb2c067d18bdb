# frozen_string_literal: true

module RubyLLM
  module FileStores
    module Native
      module History
        # What diff compares: each version's bytes, checked to be text and
        # within DIFF_MAX_BYTES. Included by HistoryMethods; private.
        module Diffs
          # The bytes diff reads of each version, at most.
          DIFF_MAX_BYTES = 32 << 20

          private

          def diff_side(log, record)
            return [record.path, ''.b] unless record.digest

            diff_check(record.path, record.content_type, record.byte_size)
            [record.path, log.bytes(record)]
          end

          def diff_current(path)
            file = self[path]
            return [path, ''.b] unless file

            diff_check(path, file.content_type, file.byte_size)
            [path, read(path)]
          end

          def diff_check(path, content_type, byte_size)
            unless Native.text_content_type?(content_type.to_s)
              raise ArgumentError, "#{path} is #{content_type}, not text: diff compares text files; read_version " \
                                   'gives the bytes of each version'
            end
            return if byte_size <= DIFF_MAX_BYTES

            raise ArgumentError, "#{path} is #{byte_size} bytes: diff compares versions of at most #{DIFF_MAX_BYTES}"
          end
        end
      end
    end
  end
end
