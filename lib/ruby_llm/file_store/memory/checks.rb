# frozen_string_literal: true

module RubyLLM
  class FileStore
    class Memory < FileStore
      # Where a Memory store may put a file, and whether it fits. Included
      # by the store; its methods run under the store's lock.
      module Checks # :nodoc:
        private

        def folder?(path)
          prefix = "#{path}/"
          @entries.any? { |other, owners| other.start_with?(prefix) && visible(owners) }
        end

        def check_place(path)
          raise ArgumentError, "#{path} is a folder, not a file" if folder?(path)

          parts = path.split('/')
          (1...parts.size).each do |n|
            parent = parts.first(n).join('/')
            raise ArgumentError, "#{path} goes through a file as if it were a folder" if visible(@entries[parent])
          end
        end

        def check_room(path, bytes)
          return unless @max_bytes

          replaced = @entries.dig(path, @owner_key)&.bytes&.bytesize || 0
          needed = total_size - replaced + bytes.bytesize
          return if needed <= @max_bytes

          raise FileStoreFullError,
                "#{FULL} Writing #{path} needs #{needed} bytes in all, and the limit is #{@max_bytes}."
        end
      end
    end
  end
end
