# frozen_string_literal: true

require_relative 'adapters/need'
require_relative 'adapters/line'
require_relative 'adapters/attachment_content'
require_relative 'adapters/chat_hooks'
require_relative 'adapters/agent_hooks'
require_relative 'adapters/record_hooks'
require_relative 'adapters/ruby_llm_2'
require_relative 'adapters/ruby_llm_1_16'

module RubyLLM
  class FileStore
    module Integration
      # Every hook into ruby_llm's chats, agents and acts_as_chat records
      # goes through one adapter per ruby_llm line (RubyLLM2 for ruby_llm
      # 2.0 and its main branch, RubyLLM116 for 1.16). Each lists the
      # ruby_llm methods it relies on (its NEEDS) and the versions it was
      # checked against; the first whose needs the loaded ruby_llm meets
      # is the one in use. Nothing here raises at require: with no
      # adapter, only the calls that need one raise
      # IncompatibleRubyLLMError (current!).
      module Adapters # :nodoc:
        ALL = [RubyLLM2, RubyLLM116].freeze

        module_function

        # The adapter for the loaded ruby_llm, or nil. Found once: the
        # loaded ruby_llm does not change.
        def current
          return @current if @current
          return nil unless FileStores::Native.ruby_llm_loaded?

          @current = ALL.find(&:usable?)
        end

        # The adapter for the loaded ruby_llm; raises
        # IncompatibleRubyLLMError naming what +feature+ needs and what the
        # loaded ruby_llm lacks.
        def current!(feature = 'with_file_store')
          current || raise(FileStores::Native::IncompatibleRubyLLMError, message(feature))
        end

        # The adapter whose acts_as_chat record hooks the loaded ruby_llm
        # meets, or nil.
        def records
          adapter = current
          adapter if adapter&.records_usable?
        end

        def message(feature)
          lines = ALL.map(&:line).join(' or ')
          unless FileStores::Native.ruby_llm_loaded?
            return "#{feature} needs ruby_llm (#{lines}): require \"ruby_llm\" first, then " \
                   'RubyLLM::FileStores::Native.install!'
          end

          nearest = ALL.min_by { |adapter| adapter.missing.size }
          "#{feature} needs ruby_llm #{lines}; the loaded ruby_llm #{version} lacks what the " \
            "#{nearest.line} adapter uses: #{nearest.missing.join('; ')}. Use ruby_llm #{lines}, or give a chat " \
            'the tools without the chat integration: chat.with_tools(*RubyLLM::FileStore::Tools.for(store)).'
        end

        def version
          defined?(::RubyLLM::VERSION) ? ::RubyLLM::VERSION : '(unknown version)'
        end
      end
    end
  end
end
