# frozen_string_literal: true

module RubyLLM
  module FileStores
    module Native
      # The +file_converters+ setting: content type (or family, like
      # 'image/*', or '*/*') => a converter or an Array of them.
      #
      #   RubyLLM.configure do |config|
      #     config.file_converters['application/x-subrip'] = RubyLLM::FileStore::Converters::Text
      #   end
      #
      # Each configuration gets a Hash of its own on first use, so no shared
      # default is ever changed in place. A key that is not a content type, a
      # family or '*/*' (such as 'pdf') raises ArgumentError saying what to
      # write (see ConverterRegistry).
      module ConverterSettings
        # The registry: content type => converter or Array of converters.
        def file_converters
          @file_converters ||= ConverterRegistry.new
        end

        # Replaces the registry with the pairs of +converters+ (a Hash), each
        # key checked as <tt>file_converters[type] = ...</tt> checks it.
        def file_converters=(converters)
          unless converters.is_a?(Hash)
            raise ArgumentError, "file_converters must be a Hash of content type => converter, not #{converters.class}"
          end

          @file_converters = ConverterRegistry.of(converters)
        end

        # A copy made by RubyLLM.context gets its own Hash too.
        def initialize_copy(source)
          super
          @file_converters = source.file_converters.dup
        end
      end
    end
  end
end
