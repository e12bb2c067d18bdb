# frozen_string_literal: true

# ruby_llm-file_stores-native: file stores for RubyLLM chats and agents, with
# a Rust core. Works with ruby_llm loaded, and on its own as a library.
#
#   require 'ruby_llm/file_stores/native'
#   store = RubyLLM::NativeDir.new('tmp/work')

require_relative 'native/version'
require_relative 'native/errors'
require_relative 'native/extension'
require_relative 'native/configuration'
require_relative 'native/text_cache'
require_relative 'native/stored_file'
require_relative 'native/line_window'
require_relative 'native/attachment_memory'
require_relative 'native/conversions'
require_relative 'native/listing'
require_relative 'native/store_methods'
require_relative 'native/write_events'
require_relative 'native/file_store'
require_relative 'native/glue/inline_limit'
require_relative 'native/glue/owner'
require_relative 'native/converters'
require_relative 'native/memory'
require_relative 'native/native_dir'
require_relative 'native/tools'
require_relative 'native/glue'
RubyLLM::FileStore.autoload(:ActiveStorage, File.expand_path('native/active_storage', __dir__)) # Rails, when used
require_relative 'native/active_storage/railtie' if defined?(Rails::Railtie)
require_relative 'native/code_execution'
