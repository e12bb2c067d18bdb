# frozen_string_literal: true

require_relative 'glue/setup'
require_relative 'glue/attachment_blobs'
require_relative 'glue/names'
require_relative 'glue/keeper'
require_relative 'glue/lines'
require_relative 'glue/blocked_addresses'
require_relative 'glue/url_fetch'
require_relative 'glue/url_attachment'
require_relative 'glue/long_results'
require_relative 'glue/request_view'
require_relative 'glue/chat_files'
require_relative 'glue/chat_files/plain_messages'
require_relative 'glue/agent_file_store'
require_relative 'glue/chat_extension'
require_relative 'glue/adapters'
require_relative 'glue/agent_extension'
require_relative 'glue/record_checks'
require_relative 'glue/record_extension'

module RubyLLM
  module FileStores
    module Native
      # The pieces that give RubyLLM chats their files: plain Ruby objects
      # that work without ruby_llm (Setup, Keeper, ChatFiles, ...), the thin
      # extensions that Native.install! puts into ruby_llm (ChatExtension,
      # AgentExtension, RecordExtension), and one adapter per ruby_llm line
      # (Adapters).
      module Glue
      end
    end
  end
end
