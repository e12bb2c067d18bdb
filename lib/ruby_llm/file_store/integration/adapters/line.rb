# frozen_string_literal: true

module RubyLLM
  class FileStore
    module Integration
      module Adapters
        # What every adapter answers: its line, its needs, and whether the
        # loaded ruby_llm meets them.
        module Line # :nodoc:
          def usable? = missing.empty?

          def missing = self::NEEDS.reject(&:met?).map(&:to_s)

          def records_usable? = self::RECORD_NEEDS.all?(&:met?)

          def line = self::LINE

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
