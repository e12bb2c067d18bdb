# frozen_string_literal: true

# The agents' defaults: their chats are Chat records (made by bin/rails g ruby_llm:install).
class ApplicationAgent < RubyLLM::Agent
  chat_model Chat
  model ENV.fetch('LLM_MODEL', 'gpt-4.1-mini'), **Rails.configuration.x.llm_options
end
