# frozen_string_literal: true

# Stand-in for the event_stream_parser gem: a server-sent events parser.
module EventStreamParser
  # Parser#feed takes chunks of an event stream and yields each event as
  # (type, data, id, reconnection_time).
  class Parser
    def initialize
      @buffer = +''
      reset
    end

    def feed(chunk, &)
      @buffer << chunk
      while (index = @buffer.index(/\r\n|\r|\n/))
        line = @buffer.slice!(0, index)
        @buffer.slice!(0, @buffer.start_with?("\r\n") ? 2 : 1)
        line.empty? ? dispatch(&) : field(line)
      end
    end

    private

    def reset
      @type = nil
      @data = []
    end

    def field(line)
      return if line.start_with?(':')

      name, value = line.split(':', 2)
      value = value.to_s.delete_prefix(' ')
      case name
      when 'event' then @type = value
      when 'data' then @data << value
      when 'id' then @id = value
      when 'retry' then @retry = value.to_i if value.match?(/\A\d+\z/)
      end
    end

    def dispatch
      yield(@type || 'message', @data.join("\n"), @id, @retry) unless @data.empty?
      reset
    end
  end
end
