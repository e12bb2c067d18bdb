# frozen_string_literal: true

module RubyLLM
  class FileStore
    class CodeExecution
      # What a run printed on one stream, kept up to a limit: the start and
      # the end, with a note saying how much of the middle was cut. Reading
      # goes on to the end, so a program that prints without stopping is not
      # blocked on a full pipe; it is stopped by the time limit instead.
      class Output # :nodoc:
        attr_reader :total

        def initialize(limit)
          @limit = limit
          @head = +''.b
          @tail = +''.b
          @total = 0
        end

        def <<(chunk)
          @total += chunk.bytesize
          room = (@limit / 2) - @head.bytesize
          if room.positive?
            @head << chunk.byteslice(0, room)
            chunk = chunk.byteslice(room..) || ''.b
          end
          @tail << chunk
          @tail = @tail.byteslice(-(@limit / 2)..) if @tail.bytesize > @limit
          self
        end

        # Reads +io+ to its end in a thread.
        def drain(io)
          Thread.new do
            loop { self << io.readpartial(65_536) }
          rescue IOError # EOFError too
            nil
          end
        end

        def cut? = @total > @head.bytesize + @tail.bytesize

        # The text kept, valid UTF-8, with a note where bytes were cut.
        def to_s
          text = if cut?
                   kept = @tail.byteslice(-(@limit / 2)..) || @tail
                   "#{@head}\n[... #{@total - @head.bytesize - kept.bytesize} bytes not shown ...]\n#{kept}"
                 else
                   @head + @tail
                 end
          text.force_encoding(Encoding::UTF_8).scrub
        end
      end
    end
  end
end
