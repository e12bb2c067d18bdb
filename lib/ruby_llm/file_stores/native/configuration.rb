# frozen_string_literal: true

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
      def self.install_configuration!
        if defined?(RubyLLM::Configuration)
          RubyLLM::Configuration.include(ConverterSettings) unless RubyLLM::Configuration.include?(ConverterSettings)
        elsif !RubyLLM.respond_to?(:config)
          RubyLLM.singleton_class.class_eval do
            define_method(:config) { @config ||= RubyLLM::FileStores::Native::Configuration.new }
            define_method(:configure) { |&block| block&.call(config) }
          end
        end
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
