# frozen_string_literal: true

module RubyLLM
  class FileStore
    class ChatFiles
      # How a chat's messages look to ChatFiles, for plain objects with
      # role, content and attachments; an adapter answers the same for
      # ruby_llm's (see Integration::Adapters).
      module PlainMessages # :nodoc:
        module_function

        def attachments(message) = message.attachments || []
        def text(message) = message.content
        def supported?(_attachment) = true
        def shown(attachment) = attachment

        # A tool's result as [text, files] when it holds files (Strings
        # and files in an Array, or a file alone), else nil.
        def tool_files(result)
          return nil unless LongResults.file_like?(result) || LongResults.attachments?(result)

          texts, files = Array(result).flatten.compact.partition { |part| part.is_a?(String) }
          unless files.all? { |part| LongResults.file_like?(part) }
            raise ArgumentError, 'Tool results mixing attachments can only contain Strings and RubyLLM::Attachments'
          end

          [texts.join("\n\n"), files]
        end
      end
    end
  end
end
