# frozen_string_literal: true

require_relative 'integration/agent_file_store'
require_relative 'integration/chat_extension'
require_relative 'integration/adapters'
require_relative 'integration/agent_extension'
require_relative 'integration/record_checks'
require_relative 'integration/record_extension'

module RubyLLM
  class FileStore
    # What FileStores::Native.install! puts into ruby_llm: the thin
    # extensions of RubyLLM::Chat, RubyLLM::Agent and acts_as_chat records
    # (ChatExtension, AgentExtension, RecordExtension), and one adapter per
    # ruby_llm line (Adapters), the only code that knows ruby_llm's
    # internals. The features they give a chat are plain Ruby objects that
    # work without ruby_llm: FileStore::ChatFiles and its parts.
    module Integration # :nodoc:
    end
  end
end
