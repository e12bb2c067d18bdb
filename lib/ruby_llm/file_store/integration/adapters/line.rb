# frozen_string_literal: true

module RubyLLM
  class FileStore
    module Integration
      module Adapters
        # What every adapter answers: its line, its needs, whether the loaded
        # ruby_llm meets them, and what both lines do alike.
        module Line # :nodoc:
          def usable? = missing.empty?

          def missing = self::NEEDS.reject(&:met?).map(&:to_s)

          def records_usable? = self::RECORD_NEEDS.all?(&:met?)

          def line = self::LINE

          # +attachment+ as it is sent (ChatExtension.shown).
          def shown(attachment) = ChatExtension.shown(attachment)

          # How both lines hold a URL attachment's bytes (AttachmentContent).
          def loaded_content(attachment) = AttachmentContent.loaded_content(attachment)
          def preload(attachment, bytes) = AttachmentContent.preload(attachment, bytes)

          # Puts the adapter's Chat and Agent hooks into ruby_llm.
          def install!
            ::RubyLLM::Chat.prepend(self::Chat)
            ::RubyLLM::Agent.singleton_class.prepend(self::Agent)
          end
        end
      end
    end
  end
end
