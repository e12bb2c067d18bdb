# frozen_string_literal: true

require_relative 'ruby_llm_models'

# ruby_llm's own acts_as_chat models in the spec application, for the specs
# that run ruby_llm from RUBY_LLM_SOURCE (in a forked child, see
# spec/support/ruby_llm_source.rb): tables made here in the parent, with the
# columns of ruby_llm's install generator's migrations (no foreign keys, so
# the examples empty them in any order), and models defined in the child.
module RubyLLMRecords
  TABLES = %w[ruby_llm_tool_calls ruby_llm_usages llm_messages llm_chats ruby_llm_models].freeze

  module_function

  def create_tables!
    ActiveRecord::Migration.verbose = false
    connection = ActiveRecord::Base.connection
    create_models(connection)
    create_chats_and_messages(connection)
    create_tool_calls(connection)
    create_usages(connection)
  end

  def create_models(connection)
    connection.create_table(:ruby_llm_models, force: true) do |t|
      %i[model_id name provider].each { |column| t.string column, null: false }
      t.string :family
      t.datetime :model_created_at
      t.integer :context_window
      t.integer :max_output_tokens
      t.date :knowledge_cutoff
      %i[modalities pricing metadata].each { |column| t.json column, default: {} }
      t.json :capabilities, default: []
      t.timestamps
    end
  end

  def create_chats_and_messages(connection)
    connection.create_table(:llm_chats, force: true) do |t|
      t.references :ruby_llm_model
      t.boolean :cancelled, null: false, default: false
      t.timestamps
    end
    connection.create_table(:llm_messages, force: true) do |t|
      t.references :llm_chat, null: false
      t.string :role, null: false
      t.text :content
      t.boolean :cache_until_here, null: false, default: false
      %i[thinking_text thinking_signature].each { |column| t.text column }
      %i[citations server_tool_calls raw_content raw_reasoning].each { |column| t.json column }
      t.string :finish_reason
      # ruby_llm 1.16's columns: its model, the tool call a result answers, tokens.
      %i[ruby_llm_model ruby_llm_tool_call].each { |name| t.references name }
      %i[input output cached cache_creation thinking].each { |kind| t.integer :"#{kind}_tokens" }
      t.timestamps
    end
  end

  def create_tool_calls(connection)
    connection.create_table(:ruby_llm_tool_calls, force: true) do |t|
      t.references :message, polymorphic: true # 1.16 leaves message_type empty
      t.references :result, polymorphic: true
      %i[tool_call_id name].each { |column| t.string column, null: false }
      t.text :thought_signature
      t.string :approval
      t.json :arguments, default: {}
      t.timestamps
    end
  end

  def create_usages(connection)
    connection.create_table(:ruby_llm_usages, force: true) do |t|
      t.references :chat, polymorphic: true, null: false
      t.references :message, polymorphic: true
      %i[operation provider model status].each { |column| t.string column, null: false }
      %i[input output cache_read cache_write thinking].each { |kind| t.integer :"#{kind}_tokens" }
      %i[input output cache_read cache_write thinking total].each do |kind|
        t.decimal :"#{kind}_cost", precision: 16, scale: 10
      end
      t.timestamps
    end
  end

  def empty_tables!
    connection = ActiveRecord::Base.connection
    TABLES.each { |table| connection.execute("DELETE FROM #{connection.quote_table_name(table)}") }
  end

  # In the child, after ruby_llm is loaded: the models (see RubyLLMModels).
  def load_models!
    RubyLLMModels.load!
  end
end
