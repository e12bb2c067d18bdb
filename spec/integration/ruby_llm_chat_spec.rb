# frozen_string_literal: true

require 'marcel'
require 'stringio'

# The integration against ruby_llm itself, driven through a scripted
# OpenAI-compatible server on 127.0.0.1 that records what goes over the wire,
# once for each ruby_llm line with a copy: main (RUBY_LLM_SOURCE) and 1.16.0
# (RUBY_LLM_1_16_SOURCE); see spec/support/ruby_llm_source.rb. The same
# examples, the same requests on the wire.
RSpec.describe 'RubyLLM chats with file stores', :integration do
  include_context 'in a temporary folder'

  let(:s) { ScriptedOpenAIServer }

  RubyLLMSource.each_version(self) do
    # A message's attachments, in a child: ruby_llm 2.0 has Message#attachments,
    # 1.16 keeps them in its RubyLLM::Content.
    def attachments_of(message)
      return message.attachments if message.respond_to?(:attachments)

      message.content.respond_to?(:attachments) ? message.content.attachments : []
    end

    # A message's text, in a child: 1.16 keeps it in its RubyLLM::Content too.
    def text_of(message)
      (message.content.respond_to?(:text) ? message.content.text : message.content).to_s
    end

    it 'sends the latest attachments in full and earlier ones as lines, keeping chat.messages as they were' do
      notes = File.join(@tmp, 'notes.md').tap { |path| File.write(path, "# Notes\nTermination: 30 days.\n") }
      pdf = File.join(@tmp, 'contract-v2.pdf').tap { |path| File.binwrite(path, "%PDF-1.4\n#{'x' * 3000}\n%%EOF\n") }
      other = File.join(@tmp, 'other').tap { |dir| Dir.mkdir(dir) }
      File.write(File.join(other, 'notes.md'), "# Other notes\n")
      facts = with_server([s.text('Read both.'),
                           s.tool_calls(['edit_file', { path: 'notes.md', old_text: '30 days', new_text: '60 days' }]),
                           s.text('Changed.'), s.text('Without files.')]) do |server|
        chat = new_chat.with_file_store
        written = []
        chat.after_file_write { |file| written << file.path }
        chat.ask 'Compare these', with: [notes, pdf]
        chat.ask 'Make it 60 days', with: File.join(other, 'notes.md')
        chat.with_file_store(nil).ask 'And without the store?'
        { requests: server.requests, written:, first_attachments: attachments_of(chat.messages.first).map(&:filename) }
      end

      first, second, third, fourth = facts[:requests]
      markdown = Marcel::MimeType.for(name: 'notes.md') # ruby_llm's attachment type: text/markdown from Marcel 1.0.4
      notes_part = a_hash_including('type' => 'text', 'text' => a_string_including('Termination: 30 days'))
      expect(user_contents(first).first).to match([{ 'type' => 'text', 'text' => 'Compare these' }, notes_part,
                                                   a_hash_including('type' => 'file')])
      expect(user_contents(second).first).to eq(
        "Compare these\n\nnotes.md (#{markdown}, 30 bytes) is in this chat's files.\n" \
        "contract-v2.pdf (application/pdf, 2.9 KB) is in this chat's files."
      )
      expect(user_contents(second).last.last['text']).to eq("<file name='notes.md' mime_type='#{markdown}'>" \
                                                            "# Other notes\n</file>")
      expect(tool_contents(third)).to eq(['Edited notes.md (1 replacement).'])
      expect(facts[:written]).to eq(%w[notes.md contract-v2.pdf notes-2.md notes.md])
      expect(facts[:first_attachments]).to eq(%w[notes.md contract-v2.pdf])
      expect(user_contents(fourth).first).to include(a_hash_including('type' => 'file'))
    end

    it 'sends an attachment the provider cannot take as its converted text, or as a line with no converter' do
      subtitles = File.join(@tmp, 'talk.srt').tap do |path|
        File.write(path, "1\n00:00:01,000 --> 00:00:02,000\nHello\n")
      end
      archive = File.join(@tmp, 'data.zip').tap { |path| File.binwrite(path, "PK\x03\x04#{'z' * 50}".b) }
      facts = with_server([s.text('Seen.')]) do |server|
        RubyLLM.config.file_converters['application/x-subrip'] = RubyLLM::FileStore::Converters::Text
        chat = new_chat.with_file_store
        chat.ask 'What is in these?', with: [subtitles, archive]
        { requests: server.requests, attachments: attachments_of(chat.messages.first).size }
      end

      expect(user_contents(facts[:requests].first).first).to eq(
        "What is in these?\n\n<file name='talk.srt' mime_type='application/x-subrip' sent_as='text'>\n" \
        "1\n00:00:01,000 --> 00:00:02,000\nHello\n</file>\n" \
        "data.zip (application/zip, 54 bytes) is in this chat's files."
      )
      expect(facts[:attachments]).to eq(2)
    end

    it 'saves a 48,000-character tool result in results/ and sends its first 2,000 characters' do
      facts = with_server([s.tool_calls(['drive_search', {}], ['chart', {}]), s.text('Summarized.')]) do |server|
        search = Class.new(RubyLLM::Tool) do
          def self.name = 'DriveSearch'
          description 'Searches the drive'
          def execute = (1..4000).map { |i| format('item %04d: plan', i) }.join("\n")[0, 48_000]
        end
        chart = Class.new(RubyLLM::Tool) do
          def self.name = 'Chart'
          description 'Draws a chart'
          def execute = RubyLLM::Attachment.new(StringIO.new("\x89PNG\r\n\x1A\n#{'p' * 100}".b), filename: 'chart.png')
        end
        chat = new_chat.with_file_store.with_tools(search, chart)
        chat.ask 'Find the plans'
        result = chat.file_store.list.find { |file| file.path.start_with?('results/') }
        { requests: server.requests, path: result.path, saved: chat.file_store.read(result.path),
          kept: chat.messages.filter_map { |m| [text_of(m), attachments_of(m).map(&:filename)] if m.role == :tool },
          store: chat.file_store.list.map(&:path) }
      end

      sent_result, sent_chart = tool_contents(facts[:requests].last)
      expect(facts[:saved].size).to eq(48_000)
      expect(facts[:path]).to match(%r{\Aresults/drive_search-\h{8}\.txt\z})
      expect(sent_result).to eq("#{facts[:saved][0, 2000]}\n\n[This result has 48000 characters, so only the start " \
                                "is shown. All of it is in #{facts[:path]}: read more with read_file, or search it " \
                                'with search_files.]')
      expect(sent_chart).to eq("chart.png (image/png, 108 bytes) is in this chat's files.")
      expect(facts[:kept]).to eq([[sent_result, []], ['', ['chart.png']]])
      expect(facts[:store]).to contain_exactly('chart.png', facts[:path])
    end

    it 'sends whole a long result of a tool class whose inline_limit (its own or inherited) allows it' do
      facts = with_server([s.tool_calls(['export', {}]), s.text('Exported.')]) do |server|
        base = Class.new(RubyLLM::Tool) { inline_limit 60_000 }
        export = Class.new(base) do
          def self.name = 'Export'
          description 'Exports'
          def execute = 'x' * 48_000
        end
        chat = new_chat.with_file_store.with_tools(export)
        chat.ask 'Export it'
        { requests: server.requests, limit: export.inline_limit, files: chat.file_store.list.map(&:path) }
      end

      expect(tool_contents(facts[:requests].last)).to eq(['x' * 48_000])
      expect(facts.slice(:limit, :files)).to eq(limit: 60_000, files: [])
    end

    it 'lets the model search, read and edit files through tool calls' do
      folder = File.join(@tmp, 'docs')
      FileUtils.mkdir_p(File.join(folder, 'guides'))
      File.write(File.join(folder, 'guides/setup.md'), "# Setup\nSee [install](instal.md).\n")
      File.write(File.join(folder, 'guides/usage.md'), "# Usage\nNo links here.\n")
      script = [s.tool_calls(['search_files', { pattern: 'instal\\.md', files_only: true }]),
                s.tool_calls(['read_file', { path: 'guides/setup.md' }]),
                s.tool_calls(['edit_file', { path: 'guides/setup.md', old_text: '(instal.md)',
                                             new_text: '(install.md)' }]),
                s.text('Fixed the link.')]
      facts = with_server(script) do |server|
        chat = new_chat.with_file_store(folder)
        written = []
        chat.after_file_write { |file| written << file.path }
        chat.ask 'Fix the broken links'
        { requests: server.requests, written: }
      end

      results = tool_contents(facts[:requests].last)
      expect(results[0]).to include('guides/setup.md')
      expect(results[0]).not_to include('usage.md')
      expect(results[1]).to eq("# Setup\nSee [install](instal.md).\n")
      expect(results[2]).to start_with('Edited guides/setup.md')
      expect(File.read(File.join(folder, 'guides/setup.md'))).to eq("# Setup\nSee [install](install.md).\n")
      expect(facts[:written]).to eq(['guides/setup.md'])
      expect(facts[:requests].first['tools'].map { |t| t.dig('function', 'name') })
        .to eq(%w[list_files read_file search_files write_file edit_file])
    end

    it 'sends an image read_file returns in full until the next question, then as its line' do
      folder = File.join(@tmp, 'charts').tap { |dir| Dir.mkdir(dir) }
      File.binwrite(File.join(folder, 'chart.png'), "\x89PNG\r\n\x1A\n#{'p' * 100}".b)
      script = [s.tool_calls(['read_file', { path: 'chart.png' }]), s.text('A chart.'), s.text('Welcome.')]
      facts = with_server(script) do |server|
        chat = new_chat.with_file_store(folder)
        chat.ask 'Show me the chart'
        chat.ask 'Thanks'
        { requests: server.requests }
      end

      _, in_full, later = facts[:requests]
      expect(in_full['messages'].to_json).to include('data:image/png;base64')
      expect(later['messages'].to_json).not_to include('data:image/png;base64')
      expect(tool_contents(later)).to eq(["chart.png (image/png, 108 bytes) is in this chat's files."])
    end

    it "runs code over the chat's store, following it when the store changes" do
      script = [s.tool_calls(['run_code', { language: 'shell', code: 'echo hi > hi.txt' }]), s.text('Ran.')]
      facts = with_server(script) do |server|
        chat = new_chat.with_file_store(:memory).with_code_execution(python: false)
        written = []
        chat.after_file_write { |file| written << file.path }
        chat.ask 'Make a file'
        first = chat.file_store
        chat.with_file_store(:memory)
        follows = chat.code_execution.store.equal?(chat.file_store) && !chat.file_store.equal?(first)
        { requests: server.requests, written:, files: first.list.map(&:path), follows:,
          without: chat.with_file_store(nil).tools.keys.map(&:to_s) }
      end

      expect(tool_contents(facts[:requests].last).first).to include('hi.txt')
      expect(facts.slice(:written, :files, :follows, :without))
        .to eq(written: ['hi.txt'], files: ['hi.txt'], follows: true, without: [])
    end

    it 'gives each chat an agent builds a store of its own' do
      root = @tmp
      facts = with_server([s.tool_calls(['list_files', {}]), s.text('Two files.')]) do |server|
        project_agent = Class.new(RubyLLM::Agent) do
          model 'gpt-4.1-mini', **RubyLLMSource.chat_options
          inputs :root, :project
          file_store -> { File.join(root, project) }, tools: :read
        end
        memory_agent = Class.new(RubyLLM::Agent) do
          model 'gpt-4.1-mini', **RubyLLMSource.chat_options
          file_store :memory, inline_limit: 20_000
        end
        without = Class.new(memory_agent) { file_store nil }
        alpha = project_agent.new(root:, project: 'alpha')
        beta = project_agent.new(root:, project: 'beta')
        alpha.file_store.write('a.md', 'a')
        alpha.file_store.write('b.md', 'b')
        alpha.ask 'What is in your files?'
        first, second = Array.new(2) { memory_agent.new }
        { requests: server.requests, roots: [alpha.file_store.local_root, beta.file_store.local_root],
          alpha_tools: alpha.chat.tools.keys.map(&:to_s),
          memory_stores_differ: !first.file_store.equal?(second.file_store),
          memory_class: first.file_store.class.name, without: without.new.file_store }
      end

      expect(facts[:roots]).to eq([File.join(@tmp, 'alpha'), File.join(@tmp, 'beta')])
      expect(facts[:alpha_tools]).to eq(%w[list_files read_file search_files])
      expect(tool_contents(facts[:requests].last))
        .to eq(["a.md (text/markdown, 1 byte)\nb.md (text/markdown, 1 byte)\n"])
      expect(facts.values_at(:memory_stores_differ, :memory_class, :without))
        .to eq([true, 'RubyLLM::FileStore::Memory', nil])
    end
  end
end
