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
    end
  end
end
