# frozen_string_literal: true

module RubyLLM
  module FileStores
    module Native
      VERSION = '0.1.0'
    end
  end
end
