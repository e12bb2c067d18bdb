# frozen_string_literal: true

# ruby_llm's acts_as_chat models, defined in a child after ruby_llm is
# loaded (see RubyLLMRecords, which makes their tables): ruby_llm 2.0's, or
# 1.16's on the same tables.
module RubyLLMModels
  module_function

  # What ruby_llm's Railtie does when Active Record loads (this application
  # was initialized before ruby_llm was required, so its Railtie never ran),
  # then the models.
  def load!
    ruby_llm2? ? load2! : load116!
  end

  # Whether the loaded ruby_llm is 2.0 (main), with its own model and tool
  # call records, rather than 1.16, whose acts_as names them.
  def ruby_llm2?
    $LOAD_PATH.any? { |path| File.exist?(File.join(path, 'ruby_llm/active_record/usage.rb')) }
  end

  def load2!
    %w[payload_helpers model tool_call usage batch chat_methods message_methods acts_as].each do |file|
      require "ruby_llm/active_record/#{file}"
    end
    ActiveRecord::Base.include(RubyLLM::ActiveRecord::ActsAs)
    Object.const_set(:LlmChat, Class.new(ActiveRecord::Base)).class_eval do
      acts_as_chat messages: :llm_messages, message_class: 'LlmMessage'
    end
    Object.const_set(:LlmMessage, Class.new(ActiveRecord::Base)).class_eval do
      acts_as_message chat: :llm_chat, chat_class: 'LlmChat'
      has_many_attached :attachments
    end
  end

  # ruby_llm 1.16's acts_as (config.use_new_acts_as, what its install
  # generator sets) on the same tables.
  def load116!
    %w[payload_helpers chat_methods message_methods model_methods tool_call_methods acts_as].each do |file|
      require "ruby_llm/active_record/#{file}" # as its Railtie does
    end
    RubyLLM.config.use_new_acts_as = true
    ActiveRecord::Base.include(RubyLLM::ActiveRecord::ActsAs)
    define116(:RubyLLMModel, 'ruby_llm_models') { acts_as_model chats: :llm_chats, chat_class: 'LlmChat' }
    define116(:LlmChat) { acts_as_chat messages: :llm_messages, message_class: 'LlmMessage', **MODEL116 }
    define116(:LlmMessage) do
      acts_as_message chat: :llm_chat, chat_class: 'LlmChat', tool_calls: :ruby_llm_tool_calls,
                      tool_call_class: 'RubyLLMToolCall', tool_calls_foreign_key: :message_id, **MODEL116
      has_many_attached :attachments
    end
    define116(:RubyLLMToolCall, 'ruby_llm_tool_calls') do
      acts_as_tool_call message: :message, message_class: 'LlmMessage', result: :result, result_class: 'LlmMessage'
    end
  end

  # 1.16 names the model association of chats and messages.
  MODEL116 = { model: :ruby_llm_model, model_class: 'RubyLLMModel' }.freeze

  # A named block: an anonymous & used inside a block is a SyntaxError on Ruby 3.3+.
  def define116(name, table = nil, &block) # rubocop:disable Naming/BlockForwarding
    model = Object.const_set(name, Class.new(ActiveRecord::Base))
    model.table_name = table if table
    model.class_eval(&block) # rubocop:disable Naming/BlockForwarding
  end
end
