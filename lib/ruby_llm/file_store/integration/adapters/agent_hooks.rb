# frozen_string_literal: true

module RubyLLM
  class FileStore
    module Integration
      module Adapters
        # The hook into RubyLLM::Agent's configuration that both lines
        # share: each chat an agent builds or loads gets the agent's
        # file_store declaration (see AgentExtension).
        module AgentHooks # :nodoc:
          def apply_configuration(chat, input_values:, persist_instructions:)
            result = super
            declaration = file_store_declaration
            declaration&.apply(chat, runtime_context(chat:, inputs: input_values))
            result
          end
        end
      end
    end
  end
end
