# frozen_string_literal: true

require_relative 'support/active_storage_helper'
require_relative 'support/ruby_llm_records'

# Guarantee (README: a chat with files never gets stuck), through ruby_llm's
# own acts_as_chat records on each ruby_llm line (RUBY_LLM_SOURCE for main,
# RUBY_LLM_1_16_SOURCE for 1.16.0) and the scripted OpenAI-compatible server:
# a write_file at a path longer than PostgreSQL's index row holds is a file,
# and the chat's next ask works. Before path_digest, the tool raised
# PG::ProgramLimitExceeded out of the first ask, and on ruby_llm main every
# later ask raised PendingToolCallsError (1.16 kept the unanswered call).
RSpec.describe 'a chat record writing at a long path', :integration do
  before(:context) { RubyLLMRecords.create_tables! }

  before { RubyLLMRecords.empty_tables! }

  let(:s) { ScriptedOpenAIServer }

  RubyLLMSource.each_version_on_rails(self, ActiveRecord.version.to_s) do
    def prepare_child = RubyLLMRecords.load_models!

    def chat_options
      { model: 'gpt-4.1-mini', **RubyLLMSource.chat_options.slice(:provider, :assume_model_exists),
        **(LlmChat.method_defined?(:protocol=) ? { protocol: :chat_completions } : {}) }
    end

    # What an ask answered, or the error it raised.
    def answer(chat, question)
      chat.ask(question).content
    rescue StandardError => e
      "raised #{e.class}: #{e.message[0, 200]}"
    end

    it 'saves a 3,009-byte path and answers the next ask' do
      path = [*Array.new(11) { SecureRandom.alphanumeric(250) }, "#{SecureRandom.alphanumeric(245)}.md"].join('/')
      write = s.tool_calls(['write_file', { path:, content: "# Long\n" }])
      facts = with_server([write, s.text('Saved.'), s.text('Next.')]) do |server|
        chat = LlmChat.create!(**chat_options).with_file_store
        answers = [answer(chat, 'Save it'), answer(chat, 'And then?')]
        tool = server.requests[1]&.fetch('messages')&.find { |m| m['role'] == 'tool' }
        { answers:, tool_result: tool && tool['content'].to_s, paths: chat.file_store.list.map(&:path),
          bytes: (chat.file_store.read(path) if chat.file_store.exist?(path)) }
      end

      expect(path.bytesize).to eq(3_009)
      expect(facts[:answers]).to eq(%w[Saved. Next.])
      expect(facts[:tool_result]).not_to include('error')
      expect(facts).to include(paths: [path], bytes: "# Long\n")
    end
  end
end
