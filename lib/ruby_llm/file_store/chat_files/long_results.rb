# frozen_string_literal: true

require 'json'

module RubyLLM
  class FileStore
    class ChatFiles
      # Long tool results go to the chat's files instead of the model: a
      # result longer than the limit is saved under results/, and the model
      # gets its first 2,000 characters and the path.
      #
      #   results = LongResults.new(store, limit: 10_000)
      #   sent, file = results.shape('search_drive', result)
      #
      # JSON (a Hash or Array result, or a String holding a JSON object or
      # array) is saved as results/<tool>-<8 hex>.json: pretty printed, one
      # value per line, when its text has at most PRETTY_MAX bytes; as it
      # came above that, since parsing and printing it again takes many
      # times its size in memory. Other text is saved as it is, as .txt.
      # The hex is the start of the saved text's sha256, so the same
      # result is saved once. When the store is full, the result goes
      # whole.
      class LongResults # :nodoc:
        PREVIEW = 2_000
        # The most characters of a tool's name in a saved result's path
        # (the model names the tool it calls: any length).
        MAX_NAME = 64
        # The largest JSON text, in bytes, that is saved pretty printed.
        PRETTY_MAX = 1 << 20

        attr_reader :store, :limit

        # +limit+: the characters a result may have and still go whole;
        # false or nil sends every result whole.
        def initialize(store, limit:, keeper: Keeper.new(store))
          @store = store
          @limit = limit || nil
          @keeper = keeper
        end

        # What the model gets for +result+ from the tool named +tool_name+,
        # and the StoredFile it was saved to (nil when it goes whole).
        # +tool_limit+ is the tool class's own inline_limit: false (always
        # whole), an Integer, or nil for this chat's limit. +on_write+ is
        # called with the file when it was written.
        def shape(tool_name, result, tool_limit: nil, on_write: nil)
          limit = tool_limit.nil? ? @limit : tool_limit
          return [result, nil] unless limit

          text = LongResults.text_of(result)
          return [result, nil] if text.nil? || text.size <= limit

          saved, extension = LongResults.saved_form(result, text)
          # results/ needs no history
          file, written = FileStores::Native::History.unrecorded { save(tool_name, saved, extension) }
          return [result, nil] unless file

          on_write&.call(file) if written
          [Lines.long_result(saved[0, [PREVIEW, limit].min], saved.size, file), file]
        end

        # The text ruby_llm would send for +result+, or nil for one that is
        # not text (a file).
        def self.text_of(result)
          case result
          when String then result
          when Hash, Array then attachments?(result) ? nil : JSON.generate(result)
          when nil, Numeric, true, false, Symbol then result.to_s
          else file_like?(result) ? nil : text_of_object(result)
          end
        end

        # The text to save and its extension: JSON pretty printed (up to
        # PRETTY_MAX bytes) or as it came (above), other text as it is.
        def self.saved_form(result, text)
          structured = result.is_a?(Hash) || result.is_a?(Array)
          return [text, json_like?(text) ? 'json' : 'txt'] if text.bytesize > PRETTY_MAX

          json = structured ? result : parse_json(text)
          return [JSON.pretty_generate(json), 'json'] if json

          [text, 'txt']
        rescue JSON::GeneratorError
          [text, 'txt']
        end

        # Whether +text+ looks like a JSON object or array at both ends
        # (checked without parsing it).
        def self.json_like?(text)
          first = text[/\A\s*(.)/m, 1]
          last = text.byteslice([text.bytesize - 64, 0].max, 64).to_s.scrub[/(.)\s*\z/m, 1]
          (first == '{' && last == '}') || (first == '[' && last == ']')
        end

        def self.parse_json(text)
          return nil unless text.lstrip.start_with?('{', '[')

          parsed = JSON.parse(text)
          parsed.is_a?(Hash) || parsed.is_a?(Array) ? parsed : nil
        rescue JSON::ParserError
          nil
        end

        def self.attachments?(result)
          result.is_a?(Array) && result.flatten.any? { |part| file_like?(part) }
        end

        def self.file_like?(part)
          (defined?(RubyLLM::Attachment) && part.is_a?(RubyLLM::Attachment)) ||
            part.is_a?(FileStore::Tools::FileResult)
        end

        # The part of a saved result's path that names +tool_name+: letters,
        # digits, _ and - (others as _), at most MAX_NAME of them.
        def self.name_part(tool_name)
          name = tool_name.to_s[0, MAX_NAME * 4].to_s.gsub(/[^A-Za-z0-9_-]/, '_').sub(/\A[_-]*/, '')[0, MAX_NAME]
          name.nil? || name.empty? ? 'tool' : name
        end

        # As ruby_llm sends it: search results as JSON, anything else by to_s.
        def self.text_of_object(result)
          defined?(RubyLLM::SearchResults) && result.is_a?(RubyLLM::SearchResults) ? result.to_json : result.to_s
        end

        private

        def save(tool_name, saved, extension)
          digest = FileStores::Native.sha256_hex(saved.b)
          path = "results/#{LongResults.name_part(tool_name)}-#{digest[0, 8]}.#{extension}"
          content_type = extension == 'json' ? 'application/json' : 'text/plain'
          @keeper.keep(path, saved, content_type:)
        # Full, read-only, or no name free: the result goes whole.
        rescue RubyLLM::FileStoreFullError, RubyLLM::FileStore::ReadOnlyError, ArgumentError
          [nil, false]
        end
      end
    end
  end
end
