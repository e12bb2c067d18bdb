# frozen_string_literal: true

require 'stringio'

# Mounts (issue #30) through ruby_llm's own Chat and Agent, once for each
# ruby_llm line with a copy, against the scripted server (see
# ruby_llm_chat_spec.rb and spec/integration/README.md).
RSpec.describe 'RubyLLM chats with mounted stores', :integration do
  include_context 'in a temporary folder'

  let(:s) { ScriptedOpenAIServer }

  RubyLLMSource.each_version(self) do
    def handbook_folder
      File.join(@tmp, 'handbook').tap do |dir|
        FileUtils.mkdir_p(dir)
        File.write(File.join(dir, 'policy.md'), "# Policy\nHolidays: 25 days.\n")
      end
    end

    it 'gives the model one tree: it lists, searches, reads and is refused a read-only mount per file' do
      handbook = handbook_folder
      script = [s.tool_calls(['list_files', {}]),
                s.tool_calls(['search_files', { pattern: 'holidays' }]),
                s.tool_calls(['read_file', { path: 'handbook/policy.md' }]),
                s.tool_calls(['edit_file', { path: 'handbook/policy.md', old_text: '25', new_text: '30' }]),
                s.tool_calls(['write_file', { path: 'notes/policy.md', content: "Holidays: 30 days.\n" }]),
                s.tool_calls(['write_file', { path: 'scratch/todo.md', content: "ask HR\n" }]),
                s.text('Done.')]
      facts = with_server(script) do |server|
        chat_store = RubyLLM::FileStore::Memory.new
        chat_store.write('brief.md', "Holidays are in the handbook.\n")
        scratch = RubyLLM::FileStore::Memory.new
        mounts = { 'handbook' => RubyLLM::NativeDir.new(handbook, read_only: true), 'scratch' => scratch }
        chat = new_chat.with_file_store(chat_store, tools: %i[read write edit], mounts:)
        written = []
        chat.after_file_write { |file| written << file.path }
        chat.ask 'Raise the holidays to 30 days'
        { requests: server.requests, written:, tree: chat.file_store.class.name,
          chat_files: chat_store.list.map(&:path), scratch: scratch.list.map(&:path) }
      end

      results = tool_contents(facts[:requests].last)
      expect(results[0]).to eq("brief.md (text/markdown, 30 bytes)\nhandbook/policy.md (text/markdown, 28 bytes)\n" \
                               "[An empty folder: scratch/]\n")
      expect(results[1]).to eq("brief.md:1:Holidays are in the handbook.\nhandbook/policy.md:2:Holidays: 25 days.\n")
      expect(results[2]).to include('Holidays: 25 days.')
      expect(results[3]).to include('handbook/policy.md is read-only. Write your own copy elsewhere, such as ' \
                                    'notes/policy.md.')
      expect(results[4]).to eq('Created notes/policy.md (1 line, 19 bytes).')
      expect(File.read(File.join(handbook, 'policy.md'))).to eq("# Policy\nHolidays: 25 days.\n")
      expect(facts.slice(:tree, :chat_files, :scratch, :written))
        .to eq(tree: 'RubyLLM::FileStore::Mounts', chat_files: %w[brief.md notes/policy.md], scratch: ['todo.md'],
               written: %w[notes/policy.md scratch/todo.md])
    end

    it 'moves a file between mounts with move_file, and the edit after needs no new read' do
      script = [s.tool_calls(['read_file', { path: 'scratch/draft.md' }]),
                s.tool_calls(['move_file', { path: 'scratch/draft.md', new_path: 'memories/draft.md' }]),
                s.tool_calls(['edit_file', { path: 'memories/draft.md', old_text: 'draft', new_text: 'final' }]),
                s.tool_calls(['move_file', { path: 'memories/draft.md', new_path: 'scratch/taken.md' }],
                             ['move_file', { path: 'nope.md', new_path: 'x.md' }]),
                s.text('Kept.')]
      facts = with_server(script) do |server|
        scratch = RubyLLM::FileStore::Memory.new
        memories = RubyLLM::FileStore::Memory.new
        scratch.write('draft.md', "draft\n")
        scratch.write('taken.md', "taken\n")
        chat = new_chat.with_file_store(:memory, tools: %i[read write edit move],
                                                 mounts: { 'scratch' => scratch, 'memories' => memories })
        chat.ask 'Keep the draft'
        { requests: server.requests, scratch: scratch.list.map(&:path), memories: memories.read('draft.md') }
      end

      results = tool_contents(facts[:requests].last)
      expect(results[1]).to include('memories/draft.md')
      expect(results[2]).to eq('Edited memories/draft.md (1 replacement).')
      expect(results[3]).to include('scratch/taken.md already exists')
      expect(results[4]).to include('nope.md does not exist')
      expect(facts.slice(:scratch, :memories)).to eq(scratch: ['taken.md'], memories: "final\n")
    end

    it 'keeps attachments and long tool results in the default store' do
      notes = File.join(@tmp, 'notes.md').tap { |path| File.write(path, "# Notes\n") }
      facts = with_server([s.tool_calls(['export', {}]), s.text('Saved.')]) do |server|
        export = Class.new(RubyLLM::Tool) do
          def self.name = 'Export'
          description 'Exports'
          def execute = 'x' * 48_000
        end
        chat_store = RubyLLM::FileStore::Memory.new
        scratch = RubyLLM::FileStore::Memory.new
        chat = new_chat.with_file_store(chat_store, mounts: { 'scratch' => scratch }).with_tools(export)
        chat.ask 'Export it', with: notes
        { requests: server.requests, chat_files: chat_store.list.map(&:path), scratch: scratch.list }
      end

      expect(facts[:chat_files].first).to eq('notes.md')
      expect(facts[:chat_files].last).to match(%r{\Aresults/export-\h{8}\.txt\z})
      expect(facts[:scratch]).to eq([])
      expect(tool_contents(facts[:requests].last).first).to include("All of it is in #{facts[:chat_files].last}")
    end

    it "runs an agent's mount lambdas once per chat, as its store's" do
      handbook = handbook_folder
      facts = with_server([s.tool_calls(['list_files', {}]), s.text('Two files.')]) do |server|
        made = []
        agent = Class.new(RubyLLM::Agent) do
          model 'gpt-4.1-mini', **RubyLLMSource.chat_options
          file_store :memory, tools: :read,
                              mounts: { 'handbook' => -> { RubyLLM::NativeDir.new(handbook, read_only: true) },
                                        'scratch' => lambda {
                                          made << :scratch
                                          RubyLLM::FileStore::Memory.new
                                        } }
        end
        first = agent.new
        second = agent.new
        first.file_store.write('scratch/a.md', 'a')
        first.ask 'What is in your files?'
        { requests: server.requests, made:, handbook_read_only: first.file_store.mounts['handbook'].read_only?,
          separate: !first.file_store.mounts['scratch'].equal?(second.file_store.mounts['scratch']),
          second: second.file_store.list.map(&:path) }
      end

      expect(tool_contents(facts[:requests].last))
        .to eq(["handbook/policy.md (text/markdown, 28 bytes)\nscratch/a.md (text/markdown, 1 byte)\n"])
      expect(facts.slice(:made, :handbook_read_only, :separate, :second))
        .to eq(made: %i[scratch scratch], handbook_read_only: true, separate: true, second: ['handbook/policy.md'])
    end

    it 'runs code in the chat folder with each mount at its path, and tells after_file_write of each file once' do
      handbook = handbook_folder
      code = "cat handbook/policy.md > notes/copy.md\necho later >> scratch/todo.md\necho top > top.md\n" \
             "echo mine > handbook/new.md\n"
      script = [s.tool_calls(['run_code', { language: 'shell', code:, files: ['scratch/todo.md'] }]), s.text('Ran.')]
      facts = with_server(script) do |server|
        chat_store = RubyLLM::NativeDir.new(File.join(@tmp, 'chat'))
        notes = RubyLLM::NativeDir.new(File.join(@tmp, 'notes'))
        scratch = RubyLLM::FileStore::Memory.new
        scratch.write('todo.md', "ask HR\n")
        mounts = { 'handbook' => RubyLLM::NativeDir.new(handbook, read_only: true), 'notes' => notes,
                   'scratch' => scratch }
        chat = new_chat.with_file_store(chat_store, mounts:).with_code_execution(python: false)
        written = []
        chat.after_file_write { |file| written << file.path }
        chat.ask 'Copy the policy'
        { requests: server.requests, written: written.sort, notes: notes.read('copy.md'),
          todo: scratch.read('todo.md'), top: chat_store.read('top.md') }
      end

      result = tool_contents(facts[:requests].last).first
      expect(facts.slice(:written, :notes, :todo, :top))
        .to eq(written: %w[notes/copy.md scratch/todo.md top.md], notes: "# Policy\nHolidays: 25 days.\n",
               todo: "ask HR\nlater\n", top: "top\n")
      expect(result).to include('handbook/new.md is read-only')
      expect(File.exist?(File.join(handbook, 'new.md'))).to be(false)
    end

    it 'runs staged code over every mount, naming what it wrote under a read-only mount as unsaved' do
      handbook = handbook_folder
      code = 'cat handbook/policy.md > scratch/copy.md; echo mine > handbook/new.md; echo top > top.md'
      script = [s.tool_calls(['run_code', { language: 'shell', code:, files: %w[handbook scratch] }]), s.text('Ran.')]
      facts = with_server(script) do |server|
        chat_store = RubyLLM::FileStore::Memory.new
        scratch = RubyLLM::FileStore::Memory.new
        scratch.write('seed.md', 'seed')
        mounts = { 'handbook' => RubyLLM::NativeDir.new(handbook, read_only: true), 'scratch' => scratch }
        chat = new_chat.with_file_store(chat_store, mounts:).with_code_execution(python: false)
        chat.ask 'Copy the policy'
        { requests: server.requests, scratch: scratch.list.map(&:path), copy: scratch.read('copy.md'),
          chat_files: chat_store.list.map(&:path) }
      end

      result = tool_contents(facts[:requests].last).first
      expect(facts.slice(:scratch, :copy, :chat_files))
        .to eq(scratch: %w[copy.md seed.md], copy: "# Policy\nHolidays: 25 days.\n", chat_files: ['top.md'])
      expect(result).to include('handbook/new.md')
      expect(result).to match(/unsaved|not saved/i)
      expect(File.exist?(File.join(handbook, 'new.md'))).to be(false)
    end
  end
end
