# frozen_string_literal: true

require 'logger'

module RubyLLM
  module FileStores
    # The native file stores gem.
    module Native
      # The +file_converters+ setting: content type (or family, like
      # 'image/*', or '*/*') => a converter or an Array of them.
      #
      #   RubyLLM.configure do |config|
      #     config.file_converters['application/x-subrip'] = RubyLLM::FileStore::Converters::Text
      #   end
      #
      # Each configuration gets a Hash of its own on first use, so no shared
      # default is ever changed in place.
      module ConverterSettings
        def file_converters
          @file_converters ||= {}
        end

        def file_converters=(converters)
          unless converters.is_a?(Hash)
            raise ArgumentError, "file_converters must be a Hash of content type => converter, not #{converters.class}"
          end

          @file_converters = converters
        end

        # A copy made by RubyLLM.context gets its own Hash too.
        def initialize_copy(source)
          super
          @file_converters = source.file_converters.dup
        end
      end

      # RubyLLM's configuration when ruby_llm is not loaded: just the settings
      # this gem reads.
      class Configuration
        include ConverterSettings
      end

      # Adds the setting to ruby_llm's Configuration when ruby_llm is loaded,
      # or provides RubyLLM.configure and RubyLLM.config when it is not.
      # Safe to call again (after ruby_llm is required later).
      #
      # The stand-in keeps its object in an instance variable of its own, not
      # ruby_llm's @config: when ruby_llm is required later, its
      # RubyLLM.config must build its own Configuration, not return the
      # stand-in. Converters registered before that move over to it.
      def self.install_configuration!
        if defined?(RubyLLM::Configuration)
          RubyLLM::Configuration.include(ConverterSettings) unless RubyLLM::Configuration.include?(ConverterSettings)
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

      # Moves converters registered with the stand-in to ruby_llm's config.
      def self.adopt_stand_in_settings
        return unless RubyLLM.instance_variable_defined?(:@file_stores_native_config)

        stand_in = RubyLLM.remove_instance_variable(:@file_stores_native_config)
        return unless stand_in && RubyLLM.respond_to?(:config) && !RubyLLM.config.equal?(stand_in)

        RubyLLM.config.file_converters = stand_in.file_converters.merge(RubyLLM.config.file_converters)
      end
      private_class_method :adopt_stand_in_settings

      # Where the gem reports what it recovered from (a converter that
      # raised, an attachment it could not keep): ruby_llm's logger, else
      # Rails', else standard error.
      def self.logger
        return RubyLLM.logger if RubyLLM.respond_to?(:logger)
        return ::Rails.logger if defined?(::Rails) && ::Rails.respond_to?(:logger) && ::Rails.logger

        @logger ||= Logger.new($stderr, progname: 'RubyLLM::FileStores')
      end

      # The converters registered in RubyLLM.config (an empty Hash when none).
      def self.registered_converters
        config = RubyLLM.respond_to?(:config) ? RubyLLM.config : nil
        config.respond_to?(:file_converters) ? config.file_converters : {}
      end
    end
  end
end

RubyLLM::FileStores::Native.install_configuration!
