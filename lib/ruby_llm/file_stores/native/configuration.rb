# frozen_string_literal: true

module RubyLLM
  module FileStores
    module Native
      # RubyLLM's configuration when ruby_llm is not loaded: just the settings
      # this gem reads.
      class Configuration
        include ConverterSettings
        include UrlSettings
      end
    end
  end
end
