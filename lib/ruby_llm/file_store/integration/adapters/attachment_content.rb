# frozen_string_literal: true

require 'stringio'

module RubyLLM
  class FileStore
    module Integration
      module Adapters
        # How both lines hold a URL attachment's bytes: RubyLLM::Attachment
        # fetches a URL on the first call of content and keeps the bytes in
        # @content. The chat's files fetch a URL carefully themselves (see
        # ChatFiles::UrlFetch) and leave the bytes there, so ruby_llm does not fetch
        # it again, unbounded, when the provider needs bytes; bytes
        # ruby_llm fetched already are used as they are.
        module AttachmentContent # :nodoc:
          NEED = Need.new('RubyLLM::Attachment keeping its bytes in @content', 'keeping URL attachments') do
            attachment = Need.constant('RubyLLM::Attachment')
            probe = attachment&.new(StringIO.new('probe'), filename: 'probe.txt')
            probe&.content == 'probe' && probe.instance_variable_get(:@content) == 'probe'
          end

          module_function

          # The bytes ruby_llm loaded for +attachment+ already, or nil.
          def loaded_content(attachment)
            content = attachment.instance_variable_get(:@content)
            content.is_a?(String) ? content : nil
          end

          # Gives +attachment+ the +bytes+ fetched for it, as its own fetch would.
          def preload(attachment, bytes)
            attachment.instance_variable_set(:@content, bytes)
          end
        end
      end
    end
  end
end
