# frozen_string_literal: true

module RubyLLM
  module FileStores
    module Native
      # What a store's write makes of content given as an IO (a File, a
      # StringIO, a Tempfile, an upload, a pipe): read from its start when
      # it rewinds, whole (bytes) or in parts by a store that streams
      # (chunked?).
      module IoContent
        module_function

        # The bytes of +content+: a String as it is, or what an IO reads from
        # its start. Stores that keep the String copy it themselves
        # (NativeDir hands it to Rust, which copies it once).
        def bytes(content)
          bytes = if content.respond_to?(:read)
                    rewind(content)
                    content.read
                  else
                    content
                  end
          raise ArgumentError, "content must be a String or an IO, not #{content.class}" unless bytes.is_a?(String)

          bytes
        end

        # Rewinds +io+ when it can: a pipe or a socket cannot, and is read
        # from where it is.
        def rewind(io)
          io.rewind if io.respond_to?(:rewind)
        rescue Errno::ESPIPE
          nil
        end

        # Whether +content+ is an IO that reads in parts, read(length, buffer)
        # as IO, StringIO and Tempfile do, so a store may write it chunk by
        # chunk; an object whose read takes no length is read whole.
        def chunked?(content)
          return false unless content.respond_to?(:read)

          arity = content.method(:read).arity
          arity.negative? || arity >= 2
        rescue NameError
          false
        end
      end
    end
  end
end
