# frozen_string_literal: true

require_relative 'support/active_storage_helper'
require_relative 'support/ruby_llm_records'

# A persisted chat's history (issue #42): acts_as_chat records of each
# ruby_llm copy, through the scripted OpenAI-compatible server, each
# with_server in a process of its own: the chat found again in a second
# process keeps its history and its questions' checkpoints, and rewind(to:)
# a question asked in the first puts back the files it was asked over; an
# agent's file_store history: { keep: } is the chat's bound after a reload.
RSpec.describe 'acts_as_chat records with a history of their files', :integration do
  before(:context) { RubyLLMRecords.create_tables! }

  before { RubyLLMRecords.empty_tables! }

  let(:s) { ScriptedOpenAIServer }

  RubyLLMSource.each_version_on_rails(self, ActiveRecord.version.to_s) do
    def prepare_child = RubyLLMRecords.load_models!

    def chat_options
      { model: 'gpt-4.1-mini', **RubyLLMSource.chat_options.slice(:provider, :assume_model_exists),
        **(LlmChat.method_defined?(:protocol=) ? { protocol: :chat_completions } : {}) }
    end

    def find_chat(id)
      LlmChat.find(id).tap do |chat|
        chat.assume_model_exists = true
        chat.protocol = :chat_completions if chat.respond_to?(:protocol=)
      end
    end

    def contents(store) = store.list.to_h { |file| [file.path, store.read(file.path)] }

    it 'keeps the checkpoints across processes: rewind(to:) the second question after a reload' do
      first = [s.tool_calls(['write_file', { path: 'notes.md', content: "one\n" }]), s.text('Written.'),
               s.tool_calls(['read_file', { path: 'notes.md' }]),
               s.tool_calls(['edit_file', { path: 'notes.md', old_text: 'one', new_text: 'two' }],
                            ['write_file', { path: 'b.md', content: 'b' }]), s.text('Edited.')]
      asked = with_server(first) do
        chat = LlmChat.create!(**chat_options).with_file_store(history: true)
        chat.ask 'Write the notes'
        before_second = contents(chat.file_store)
        chat.ask 'Change them'
        { id: chat.id, before_second: }
      end

      second = [s.tool_calls(['delete_file', { path: 'notes.md' }]), s.text('Deleted.')]
      facts = with_server(second) do |server|
        reloaded_history = find_chat(asked[:id]).file_store&.history?
        chat = find_chat(asked[:id]).with_file_store(history: true, tools: %i[read write edit delete])
        chat.ask 'Delete the notes'
        store = chat.file_store
        after_third = contents(store)
        question = chat.llm_messages.where(role: 'user').order(:id).second
        store.rewind(to: question)
        rewound = contents(find_chat(asked[:id]).file_store)
        { results: tool_contents(server.requests.last), after_third:, rewound:, history: reloaded_history,
          kinds: RubyLLM::ActiveRecord::ChatFileVersion.where(chat_id: asked[:id]).order(:id).pluck(:kind) }
      end

      expect(facts[:results].last).to eq('Deleted notes.md.')
      expect(facts[:history]).to be(true)
      expect(facts[:after_third]).to eq('b.md' => 'b')
      expect(facts[:rewound]).to eq(asked[:before_second])
      expect(asked[:before_second]).to eq('notes.md' => "one\n")
      expect(facts[:kinds].count('checkpoint')).to eq(3)
    end

    it "keeps an agent's file_store history: { keep: 3 } on its chat: found again without the agent, the bound holds" do
      first = [s.tool_calls(['write_file', { path: 'notes.md', content: "one\n" }]), s.text('Written.'),
               s.tool_calls(['read_file', { path: 'notes.md' }]),
               s.tool_calls(['edit_file', { path: 'notes.md', old_text: 'one', new_text: 'two' }],
                            ['write_file', { path: 'b.md', content: 'b' }]), s.text('Edited.')]
      asked = with_server(first) do
        writer = Class.new(RubyLLM::Agent) do
          chat_model LlmChat
          model 'gpt-4.1-mini', **RubyLLMSource.chat_options
          file_store tools: %i[read write edit delete], history: { keep: 3 }
        end
        agent = writer.create!
        agent.ask 'Write the notes'
        agent.ask 'Change them'
        { id: agent.id, before_third: contents(agent.file_store) }
      end

      third = [s.tool_calls(['read_file', { path: 'notes.md' }]),
               s.tool_calls(['edit_file', { path: 'notes.md', old_text: 'two', new_text: 'three' }],
                            ['write_file', { path: 'c.md', content: 'c' }]),
               s.tool_calls(['read_file', { path: 'notes.md' }]),
               s.tool_calls(['edit_file', { path: 'notes.md', old_text: 'three', new_text: 'four' }]),
               s.text('Changed twice.')]
      facts = with_server(third) do |server|
        chat = find_chat(asked[:id]) # no agent: the store a reload gives, its bounds the chat's
        chat.ask 'Change them twice'
        store = chat.file_store
        after_third = contents(store)
        kept = store.versions('notes.md').map { |version| store.read_version(version) }
        questions = chat.llm_messages.where(role: 'user').order(:id).to_a
        refused = begin
          store.rewind(to: questions[1])
        rescue RubyLLM::FileStore::HistoryError => e
          e.message
        end
        store.rewind(to: questions[2])
        { after_third:, kept:, refused:, rewound: contents(find_chat(asked[:id]).file_store),
          errors: server.requests.flat_map { |request| tool_contents(request) }.grep(/"error"/) }
      end

      expect(facts[:errors]).to eq([])
      expect(asked[:before_third]).to eq('b.md' => 'b', 'notes.md' => "two\n")
      expect(facts[:after_third]).to eq('b.md' => 'b', 'c.md' => 'c', 'notes.md' => "four\n")
      expect(facts[:kept]).to eq(%W[four\n three\n two\n]) # keep: 3, kept with the chat
      expect(facts[:refused]).to match(/no longer kept/)
      expect(facts[:rewound]).to eq(asked[:before_third])
    end
  end
end
