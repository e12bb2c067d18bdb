# frozen_string_literal: true

require 'stringio'

# move_file and read_only: stores in real ruby_llm chats (issue #30), on each
# ruby_llm line with a copy, through the scripted OpenAI-compatible server.
RSpec.describe 'RubyLLM chats with move_file and read-only stores', :integration do
  include_context 'in a temporary folder'

  let(:s) { ScriptedOpenAIServer }

  RubyLLMSource.each_version(self) do
    it 'lets the model read, move, then edit a file at its new path without reading it again' do
      folder = File.join(@tmp, 'docs').tap { |dir| FileUtils.mkdir_p(File.join(dir, 'drafts')) }
      File.write(File.join(folder, 'drafts/plan.md'), "# Plan\nShip in May.\n")
      script = [s.tool_calls(['read_file', { path: 'drafts/plan.md' }]),
                s.tool_calls(['move_file', { path: 'drafts', new_path: 'final' }]),
                s.tool_calls(['edit_file', { path: 'final/plan.md', old_text: 'May', new_text: 'June' }]),
                s.text('Moved and edited.')]
      facts = with_server(script) do |server|
        chat = new_chat.with_file_store(folder, tools: %i[read write edit move])
        written = []
        chat.after_file_write { |file| written << file.path }
        chat.ask 'Move the drafts to final/ and make it June'
        { requests: server.requests, written: }
      end

      results = tool_contents(facts[:requests].last)
      expect(results[1]).to eq('Moved the folder drafts to final (1 file).')
      expect(results[2]).to start_with('Edited final/plan.md')
      expect(File.read(File.join(folder, 'final/plan.md'))).to eq("# Plan\nShip in June.\n")
      expect(File.exist?(File.join(folder, 'drafts/plan.md'))).to be(false)
      expect(facts[:written]).to eq(%w[final/plan.md final/plan.md]) # moved there, then edited
      tool = facts[:requests].first['tools'].find { |t| t.dig('function', 'name') == 'move_file' }
      expect(tool.dig('function', 'parameters', 'required')).to eq(%w[path new_path])
    end

    it 'refuses write_file on a read-only store with the message, and the model writes its copy elsewhere' do
      handbook = File.join(@tmp, 'handbook').tap { |dir| Dir.mkdir(dir) }
      File.write(File.join(handbook, 'policy.md'), "# Policy\n")
      script = [s.tool_calls(['write_file', { path: 'policy.md', content: 'mine' }]),
                s.tool_calls(['move_file', { path: 'policy.md', new_path: 'old.md' }]),
                s.text('It is read-only.')]
      facts = with_server(script) do |server|
        chat = new_chat.with_file_store(RubyLLM::NativeDir.new(handbook, read_only: true),
                                        tools: %i[read write edit move])
        chat.ask 'Change the policy'
        { requests: server.requests, tools: chat.tools.keys.map(&:to_s) }
      end

      message = 'policy.md is read-only. Write your own copy elsewhere, such as notes/policy.md.'
      expect(tool_contents(facts[:requests].last).map { |content| JSON.parse(content) })
        .to eq([{ 'error' => message }, { 'error' => message }])
      expect(facts[:tools]).to include('write_file', 'edit_file', 'move_file')
      expect(File.read(File.join(handbook, 'policy.md'))).to eq("# Policy\n")
    end

    it 'sends an attachment in full and a long result whole when the store is read-only, keeping nothing' do
      handbook = File.join(@tmp, 'handbook').tap { |dir| Dir.mkdir(dir) }
      notes = File.join(@tmp, 'notes.md').tap { |path| File.write(path, "# Notes\n") }
      facts = with_server([s.text('Read it.'), s.tool_calls(['export', {}]), s.text('Exported.'),
                           s.text('Again.')]) do |server|
        export = Class.new(RubyLLM::Tool) do
          def self.name = 'Export'
          description 'Exports'
          def execute = 'x' * 48_000
        end
        chat = new_chat.with_file_store(RubyLLM::NativeDir.new(handbook, read_only: true)).with_tools(export)
        chat.ask 'Read this', with: notes
        chat.ask 'Export it'
        chat.ask 'Once more'
        { requests: server.requests, files: Dir.children(handbook) }
      end

      first, _, exported, later = facts[:requests]
      notes_part = a_hash_including('type' => 'text', 'text' => a_string_including('# Notes'))
      expect(user_contents(first).first).to include(notes_part)
      expect(user_contents(later).first).to include(notes_part) # not kept, so still sent as it is
      expect(tool_contents(exported)).to eq(['x' * 48_000])
      expect(facts[:files]).to eq([])
    end
  end
end
