# frozen_string_literal: true

# History in real ruby_llm chats (issue #42), on each ruby_llm line with a
# copy, through the scripted OpenAI-compatible server: over three questions
# the model writes, edits, patches, moves, deletes and runs code, and
# rewind(to:) the second question puts back exactly the files it was asked
# over. The model is offered no history tool. An agent's file_store
# history: { keep: } does the same in a real agent, within its bound.
RSpec.describe 'RubyLLM chats with a store that keeps history', :integration do
  include_context 'in a temporary folder'

  let(:s) { ScriptedOpenAIServer }

  def script
    patch = "*** Begin Patch\n*** Update File: plan.md\n@@\n-Ship in May.\n+Ship in June.\n*** End Patch\n"
    [s.tool_calls(['write_file', { path: 'notes.md', content: "one\n" }],
                  ['write_file', { path: 'plan.md', content: "# Plan\nShip in May.\n" }]),
     s.text('Set up.'),
     s.tool_calls(['read_file', { path: 'notes.md' }], ['read_file', { path: 'plan.md' }]),
     s.tool_calls(['edit_file', { path: 'notes.md', old_text: 'one', new_text: 'two' }],
                  ['apply_patch', { patch: }]),
     s.tool_calls(['move_file', { path: 'plan.md', new_path: 'docs/plan.md' }],
                  ['run_code', { language: 'shell', code: 'echo made > made.txt; echo more >> notes.md' }]),
     s.text('Changed.'),
     s.tool_calls(['delete_file', { path: 'notes.md' }], ['write_file', { path: 'extra.md', content: 'x' }]),
     s.text('Cleaned.')]
  end

  RubyLLMSource.each_version(self) do
    [['a Memory store', ->(_tmp) { [:memory, { history: true }] }],
     ['a NativeDir', ->(tmp) { [File.join(tmp, 'work'), { history: File.join(tmp, 'work-history') }] }]]
      .each do |label, store_for|
      it "rewinds #{label} to the second question: the files as they were when it was asked" do
        store, options = store_for.call(@tmp)
        facts = with_server(script) do |server|
          chat = new_chat.with_file_store(store, tools: %i[read write edit patch delete move], **options)
                         .with_code_execution(python: false)
          contents = -> { chat.file_store.list.to_h { |file| [file.path, chat.file_store.read(file.path)] } }
          chat.ask 'Set up the notes'
          before_second = contents.call
          chat.ask 'Change them'
          chat.ask 'Clean up'
          after_third = contents.call
          second = chat.messages.select { |message| message.role == :user }[1]
          undone = chat.file_store.rewind(to: second).map { |change| [change.path, change.change] }
          { before_second:, after_third:, rewound: contents.call, undone:,
            by: chat.file_store.versions('notes.md').map(&:by).uniq.map(&:to_s).sort,
            tools: server.requests.first['tools'].map { |tool| tool.dig('function', 'name') },
            errors: server.requests.flat_map { |request| tool_contents(request) }.grep(/"error"/) }
        end

        expect(facts[:errors]).to eq([])
        expect(facts[:before_second]).to eq('notes.md' => "one\n", 'plan.md' => "# Plan\nShip in May.\n")
        expect(facts[:after_third]).to eq('docs/plan.md' => "# Plan\nShip in June.\n", 'extra.md' => 'x',
                                          'made.txt' => "made\n")
        expect(facts[:rewound]).to eq(facts[:before_second])
        expect(facts[:undone].map(&:first)).to eq(%w[docs/plan.md extra.md made.txt notes.md plan.md])
        expect(facts[:by]).to include('code', 'delete_file', 'edit_file', 'write_file')
        expect(facts[:tools].grep(/history|version|rewind|checkpoint|restore/)).to eq([])
      end
    end

    it "runs an agent's file_store history: { keep: 2 }: each question a checkpoint, rewind(to:) and the bound" do
      script = [s.tool_calls(['write_file', { path: 'notes.md', content: "one\n" }]), s.text('Written.'),
                s.tool_calls(['read_file', { path: 'notes.md' }]),
                s.tool_calls(['edit_file', { path: 'notes.md', old_text: 'one', new_text: 'two' }],
                             ['write_file', { path: 'b.md', content: 'b' }]), s.text('Edited.'),
                s.tool_calls(['read_file', { path: 'notes.md' }]),
                s.tool_calls(['edit_file', { path: 'notes.md', old_text: 'two', new_text: 'three' }],
                             ['delete_file', { path: 'b.md' }]), s.text('Changed again.')]
      facts = with_server(script) do |server|
        writer = Class.new(RubyLLM::Agent) do
          model 'gpt-4.1-mini', **RubyLLMSource.chat_options
          file_store :memory, tools: %i[read write edit delete], history: { keep: 2 }
        end
        agent = writer.new
        contents = -> { agent.file_store.list.to_h { |file| [file.path, agent.file_store.read(file.path)] } }
        seen = []
        ['Write the notes', 'Change them', 'Change them again'].each do |question|
          agent.ask question
          seen << contents.call
        end
        questions = agent.chat.messages.select { |message| message.role == :user }
        kept = agent.file_store.versions('notes.md').map { |version| agent.file_store.read_version(version) }
        refused = begin
          agent.file_store.rewind(to: questions[1])
        rescue RubyLLM::FileStore::HistoryError => e
          e.message
        end
        unchanged = contents.call
        undone = agent.file_store.rewind(to: questions[2]).map { |change| [change.path, change.change] }
        { seen:, kept:, refused:, unchanged:, undone:, rewound: contents.call,
          errors: server.requests.flat_map { |request| tool_contents(request) }.grep(/"error"/) }
      end

      expect(facts[:errors]).to eq([])
      expect(facts[:seen]).to eq([{ 'notes.md' => "one\n" }, { 'b.md' => 'b', 'notes.md' => "two\n" },
                                  { 'notes.md' => "three\n" }])
      expect(facts[:kept]).to eq(%W[three\n two\n]) # keep: 2
      expect(facts[:refused]).to match(/no longer kept/)
      expect(facts[:unchanged]).to eq(facts[:seen].last)
      expect(facts[:undone]).to eq([['b.md', :deleted], ['notes.md', :changed]])
      expect(facts[:rewound]).to eq(facts[:seen][1])
    end
  end
end
