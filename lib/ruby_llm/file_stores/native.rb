# frozen_string_literal: true

# ruby_llm-file_stores-native: file stores for RubyLLM chats and agents, with
# a Rust core. Works with ruby_llm loaded, and on its own as a library.
#
#   require 'ruby_llm/file_stores/native'
#   store = RubyLLM::NativeDir.new('tmp/work')

require 'logger'
require_relative 'native/version'
require_relative 'native/errors'
require_relative 'native/extension'
require_relative 'native/converter_registry'
require_relative 'native/converter_settings'
require_relative 'native/url_settings'
require_relative 'native/configuration'
require_relative 'native/text_cache'
require_relative '../stored_file'
require_relative '../file_store/line_window'
require_relative 'native/attachment_memory'
require_relative 'native/conversions'
require_relative '../file_store/listing'
require_relative 'native/many_writes'
require_relative 'native/copy_move'
require_relative 'native/io_content'
require_relative 'native/copy_move/originals'
require_relative '../file_version'
require_relative '../file_store/checkpoint'
require_relative 'native/history'
require_relative 'native/history/log'
require_relative 'native/history/memory_log'
require_relative 'native/history/dir_log/pack'
require_relative 'native/history/dir_log/compaction'
require_relative 'native/history/dir_log'
require_relative 'native/history/dir_log/place'
require_relative 'native/history/dir_log/lines'
require_relative 'native/history/rewind'
require_relative 'native/history/stores'
require_relative 'native/history/recording'
require_relative 'native/history/lookups'
require_relative 'native/history/questions'
require_relative 'native/history/views'
require_relative 'native/history/diffs'
require_relative 'native/history_methods'
require_relative 'native/history_recorder'
require_relative 'native/store_methods'
require_relative 'native/write_events'
require_relative 'native/read_only_guard'
require_relative 'native/path_rules'
require_relative 'native/owner'
require_relative 'native/owner_scoping'
require_relative '../file_store'
require_relative '../file_store/inline_limit'
require_relative '../file_store/converters'
require_relative '../file_store/memory'
require_relative '../native_dir'
require_relative '../file_store/directory'
require_relative '../file_store/mounts'
require_relative '../file_store/tools'
require_relative '../file_store/chat_files'
require_relative '../file_store/integration'
require_relative 'native/active_record_models'
# The Active Storage store loads when first named, in apps that use it.
RubyLLM::FileStore.autoload(:ActiveStorage, File.expand_path('../file_store/active_storage', __dir__))
require_relative 'native/active_storage_railtie' if defined?(Rails::Railtie)
require_relative '../file_store/code_execution'

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
    # into ruby_llm goes through the adapter of its line, and with none,
    # with_file_store raises IncompatibleRubyLLMError when called.
    #
    # This module is the gem's own: install!, installed?, VERSION and
    # IncompatibleRubyLLMError are its public part. Everything else inside
    # it (the native binding's classes, the methods every store shares, the
    # history's logs) is internal; the API is RubyLLM::FileStore, its
    # stores and RubyLLM::NativeDir.
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
      # adapter's hooks when the loaded ruby_llm has one (FileStore::Integration::Adapters),
      # with_code_execution, and, when its Rails integration loads, Active
      # Storage files into acts_as_chat records (FileStore::Integration::RecordExtension).
      # Returns true when it installed, false when it had.
      def self.install!
        installed = install_chat!
        RubyLLM::FileStore::CodeExecution::ChatExtension.install if defined?(RubyLLM::FileStore::CodeExecution)
        FileStore::Integration::RecordExtension.install_when_loaded
        installed
      end

      def self.install_chat!
        INSTALL_LOCK.synchronize do
          return false if installed?
          raise RubyLLM::ConfigurationError, 'install! needs ruby_llm: require "ruby_llm" first' unless ruby_llm_loaded?

          install_configuration!
          RubyLLM::Tool.extend(RubyLLM::FileStore::InlineLimit) if defined?(::RubyLLM::Tool)
          RubyLLM::Chat.prepend(FileStore::Integration::ChatExtension)
          if defined?(::RubyLLM::Agent)
            RubyLLM::Agent.extend(FileStore::Integration::AgentExtension::ClassMethods)
            RubyLLM::Agent.include(FileStore::Integration::AgentExtension::InstanceMethods)
          end
          FileStore::Integration::Adapters.current&.install!
          @installed = true
        end
      end
      private_class_method :install_chat!

      # Adds the settings to ruby_llm's Configuration when ruby_llm is loaded,
      # or provides RubyLLM.configure and RubyLLM.config when it is not.
      # Safe to call again (after ruby_llm is required later).
      #
      # The stand-in keeps its object in an instance variable of its own, not
      # ruby_llm's @config: when ruby_llm is required later, its
      # RubyLLM.config must build its own Configuration, not return the
      # stand-in. Converters registered before that, and the URL settings
      # made then, move over to it.
      def self.install_configuration! # :nodoc:
        if defined?(RubyLLM::Configuration)
          [ConverterSettings, UrlSettings].each do |settings|
            RubyLLM::Configuration.include(settings) unless RubyLLM::Configuration.include?(settings)
          end
          adopt_stand_in_settings
        elsif !RubyLLM.respond_to?(:config)
          RubyLLM.singleton_class.class_eval do
            define_method(:config) do
              # Not @config: see above.
              @file_stores_native_config ||= RubyLLM::FileStores::Native::Configuration.new # rubocop:disable Naming/MemoizedInstanceVariableName
            end
            define_method(:configure) { |&block| block&.call(config) }
          end
        end
      end

      # Moves converters registered with the stand-in, and the URL settings
      # made there, to ruby_llm's config.
      def self.adopt_stand_in_settings
        return unless RubyLLM.instance_variable_defined?(:@file_stores_native_config)

        stand_in = RubyLLM.remove_instance_variable(:@file_stores_native_config)
        return unless stand_in && RubyLLM.respond_to?(:config) && !RubyLLM.config.equal?(stand_in)

        RubyLLM.config.file_converters = stand_in.file_converters.merge(RubyLLM.config.file_converters)
        UrlSettings.copy(stand_in, RubyLLM.config)
      end
      private_class_method :adopt_stand_in_settings

      # Where the gem reports what it recovered from (a converter that
      # raised, an attachment it could not keep): ruby_llm's logger, else
      # Rails', else standard error.
      def self.logger # :nodoc:
        return RubyLLM.logger if RubyLLM.respond_to?(:logger)
        return ::Rails.logger if defined?(::Rails) && ::Rails.respond_to?(:logger) && ::Rails.logger

        @logger ||= Logger.new($stderr, progname: 'RubyLLM::FileStores')
      end

      # The converters registered in RubyLLM.config (an empty Hash when none).
      def self.registered_converters # :nodoc:
        config = RubyLLM.respond_to?(:config) ? RubyLLM.config : nil
        config.respond_to?(:file_converters) ? config.file_converters : {}
      end

      # Loads ruby_llm when it is installed; nothing when it is not.
      def self.load_ruby_llm # :nodoc:
        require 'ruby_llm'
        true
      rescue LoadError => e
        raise unless e.path == 'ruby_llm'

        false
      end
    end
  end
end

RubyLLM::FileStores::Native.install_configuration!
RubyLLM::FileStores::Native.install! if RubyLLM::FileStores::Native.load_ruby_llm
