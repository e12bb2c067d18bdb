# frozen_string_literal: true

# History in real ruby_llm chats (issue #42), on each ruby_llm line with a
# copy, through the scripted OpenAI-compatible server: over three questions
# the model writes, edits, patches, moves, deletes and runs code, and
# rewind(to:) the second question puts back exactly the files it was asked
# over. The model is offered no history tool.
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
  end
end
