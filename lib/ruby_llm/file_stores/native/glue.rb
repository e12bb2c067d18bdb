# frozen_string_literal: true

require_relative 'glue/inline_limit'
require_relative 'glue/owner'
require_relative 'glue/setup'
require_relative 'glue/attachment_blobs'
require_relative 'glue/names'
require_relative 'glue/keeper'
require_relative 'glue/lines'
require_relative 'glue/long_results'
require_relative 'glue/request_view'
require_relative 'glue/chat_files'
require_relative 'glue/agent_file_store'
require_relative 'glue/chat_extension'
require_relative 'glue/adapters'
require_relative 'glue/agent_extension'
require_relative 'glue/record_extension'

module RubyLLM
  module FileStores
    # Plugging into ruby_llm. Loading this gem tries `require 'ruby_llm'` and,
    # when ruby_llm is there, installs the chat and agent integration at
    # once. When ruby_llm is loaded later (from a path this gem could not
    # see), call install! after it; it does nothing the second time.
    #
    #   require 'ruby_llm'
    #   require 'ruby_llm/file_stores/native'   # installed
    #
    #   require 'ruby_llm/file_stores/native'   # ruby_llm not found: a library
    #   require 'ruby_llm'
    #   RubyLLM::FileStores::Native.install!
    #
    # Whatever the ruby_llm version, loading and install! work: every hook
    # into ruby_llm goes through the adapter of its line (Glue::Adapters),
    # and with none, with_file_store raises IncompatibleRubyLLMError when
    # called.
    module Native
      INSTALL_LOCK = Mutex.new
      private_constant :INSTALL_LOCK

      # Whether ruby_llm itself is loaded (not just this gem's RubyLLM module).
      def self.ruby_llm_loaded?
        !!(defined?(::RubyLLM::Chat) && defined?(::RubyLLM::VERSION) && ::RubyLLM::Chat.is_a?(Class))
      end

      # Whether install! has put the integration into ruby_llm.
      def self.installed?
        @installed == true
      end

      # Puts the integration into the loaded ruby_llm: with_file_store,
      # file_store and after_file_write into RubyLLM::Chat, the file_store
      # macro into RubyLLM::Agent, inline_limit into RubyLLM::Tool, the
      # adapter's hooks when the loaded ruby_llm has one (Glue::Adapters),
      # with_code_execution, and, when its Rails integration loads, Active
      # Storage files into acts_as_chat records (Glue::RecordExtension).
      # Returns true when it installed, false when it had.
      def self.install!
        installed = install_chat!
        RubyLLM::FileStore::CodeExecution::ChatExtension.install if defined?(RubyLLM::FileStore::CodeExecution)
        Glue::RecordExtension.install_when_loaded
        installed
      end

      def self.install_chat!
        INSTALL_LOCK.synchronize do
          return false if installed?
          raise RubyLLM::ConfigurationError, 'install! needs ruby_llm: require "ruby_llm" first' unless ruby_llm_loaded?

          install_configuration! if respond_to?(:install_configuration!)
          RubyLLM::Tool.extend(RubyLLM::FileStore::InlineLimit) if defined?(::RubyLLM::Tool)
          RubyLLM::Chat.prepend(Glue::ChatExtension)
          if defined?(::RubyLLM::Agent)
            RubyLLM::Agent.extend(Glue::AgentExtension::ClassMethods)
            RubyLLM::Agent.include(Glue::AgentExtension::InstanceMethods)
          end
          Glue::Adapters.current&.install!
          @installed = true
        end
      end
      private_class_method :install_chat!

      # Loads ruby_llm when it is installed; nothing when it is not.
      def self.load_ruby_llm
        require 'ruby_llm'
        true
      rescue LoadError => e
        raise unless e.path == 'ruby_llm'

        false
      end
    end
  end
end

RubyLLM::FileStores::Native.install! if RubyLLM::FileStores::Native.load_ruby_llm
