# frozen_string_literal: true

require 'stringio'

# Guarantee: whatever an attachment, a tool result or a converter does,
# chat.ask answers, the next question works, and the history holds no
# unanswered tool call. Runs a real ruby_llm chat (RUBY_LLM_SOURCE, see
# spec/integration/README.md) against a scripted OpenAI-compatible server.
RSpec.describe 'Guarantee: a chat with files never gets stuck', :integration do
  RubyLLMSource.each_version(self) do
    let(:s) { ScriptedOpenAIServer }

    # Runs in the ruby_llm child: each tool call of the chat has its result.
    def unanswered_tool_calls(chat)
      called = chat.messages.flat_map { |m| m.tool_calls ? m.tool_calls.keys : [] }
      answered = chat.messages.filter_map(&:tool_call_id)
      called - answered
    end

    def attachment(bytes, name) = RubyLLM::Attachment.new(StringIO.new(bytes), filename: name)

    it 'keeps attachments whose names are long in bytes, numbered ones too, cut on a character with the extension' do
      name = "#{'議事録' * 35}.md" # 105 characters before the extension, 318 bytes
      facts = with_server([s.text('One.'), s.text('Two.'), s.text('Three.')]) do |server|
        chat = new_chat.with_file_store
        answers = [chat.ask('First', with: attachment("# a\n", name)).content,
                   chat.ask('Second', with: attachment("# b\n", name)).content,
                   chat.ask('Third').content]
        { answers:, paths: chat.file_store.list.map(&:path), requests: server.requests.size }
      end

      expect(facts[:answers]).to eq(%w[One. Two. Three.])
      expect(facts[:paths].size).to eq(2)
      expect(facts[:paths].map(&:bytesize)).to all(be <= 255)
      expect(facts[:paths]).to all(end_with('.md').and(start_with('議事録議事録')))
      expect(facts[:paths].map(&:valid_encoding?)).to all(be(true))
      expect(facts[:paths]).to include(a_string_ending_with('-2.md'))
    end

    it 'sends an attachment whose name no store takes as it is, and answers' do
      facts = with_server([s.text('Seen.'), s.text('Again.')]) do |server|
        RubyLLM.config.logger = Logger.new(log = StringIO.new)
        refusing = Class.new(RubyLLM::FileStore::Memory) do
          def write(path, *, **) = raise(ArgumentError, "#{path} is refused")
        end
        chat = new_chat.with_file_store(refusing.new)
        answers = [chat.ask('Look', with: attachment('%PDF-1.4 x', 'scan.pdf')).content, chat.ask('And?').content]
        { answers:, sent: server.requests.first['messages'].last['content'], log: log.string }
      end

      expect(facts[:answers]).to eq(%w[Seen. Again.])
      expect(facts[:log]).to include('attachment not kept')
      expect(facts[:sent]).to include(a_hash_including('type' => 'file'))
    end

    it 'saves or sends a long result of a tool the model named with 12,000 characters, and the chat goes on' do
      long_name = "lookup_#{'x' * 12_000}"
      script = [s.tool_calls([long_name, {}]), s.text('Sorry.'), s.text('Fine.')]
      facts = with_server(script) do |server|
        chat = new_chat.with_file_store
        answers = [chat.ask('Look it up').content, chat.ask('Next').content]
        { answers:, unanswered: unanswered_tool_calls(chat), paths: chat.file_store.list.map(&:path),
          result: server.requests[1]['messages'].find { |m| m['role'] == 'tool' }['content'] }
      end

      expect(facts[:answers]).to eq(%w[Sorry. Fine.])
      expect(facts[:unanswered]).to be_empty
      expect(facts[:paths]).to all(match(%r{\Aresults/lookup_x+-\h{8}\.(json|txt)\z}))
      expect(facts[:paths].map(&:bytesize)).to all(be <= 255)
      expect(facts[:result]).to include('unavailable tool')
    end

    it 'saves a long result of a tool with a 250-character name under a name that fits' do
      script = [s.tool_calls(["export_#{'y' * 243}", {}]), s.text('Saved.'), s.text('Next.')]
      facts = with_server(script) do |_server|
        tool = Class.new(RubyLLM::Tool) do
          def self.name = 'Export'
          def name = "export_#{'y' * 243}"
          description 'Exports'
          def execute = 'row,' * 5_000
        end
        chat = new_chat.with_file_store.with_tools(tool)
        answers = [chat.ask('Export').content, chat.ask('Then?').content]
        { answers:, unanswered: unanswered_tool_calls(chat), paths: chat.file_store.list.map(&:path) }
      end

      expect(facts[:answers]).to eq(%w[Saved. Next.])
      expect(facts[:unanswered]).to be_empty
      expect(facts[:paths]).to contain_exactly(match(%r{\Aresults/export_y+-\h{8}\.txt\z}))
    end

    it 'answers read_file with { error: ... } when a converter raises, logs it, and keeps the chat going' do
      script = [s.tool_calls(['read_file', { path: 'scan.pdf' }]), s.text('Could not read it.'), s.text('OK.')]
      docx = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document'
      facts = with_server(script) do |server|
        log = StringIO.new
        RubyLLM.config.logger = Logger.new(log)
        RubyLLM.config.file_converters['application/pdf'] =
          ->(_file) { raise RubyLLM::ServerError, '503 Service Unavailable' }
        local = Class.new do
          def local? = true
          def call(_file) = raise(IOError, 'converter crashed')
        end.new
        RubyLLM.config.file_converters[docx] = local
        chat = new_chat.with_file_store
        chat.file_store.write('scan.pdf', '%PDF-1.4 scan', content_type: 'application/pdf')
        answers = [chat.ask('Read scan.pdf').content,
                   chat.ask('And this', with: attachment('PK not a zip', 'memo.docx')).content]
        { answers:, unanswered: unanswered_tool_calls(chat), log: log.string,
          sent: server.requests.last['messages'].last['content'],
          result: server.requests[1]['messages'].find { |m| m['role'] == 'tool' }['content'] }
      end

      expect(facts[:answers]).to eq(['Could not read it.', 'OK.'])
      expect(facts[:unanswered]).to be_empty
      expect(JSON.parse(facts[:result])).to eq(
        'error' => 'scan.pdf could not be converted: RubyLLM::ServerError: 503 Service Unavailable'
      )
      expect(facts[:sent]).to include("memo.docx (#{docx}, 12 bytes) is in this chat's files.")
      expect(facts[:log]).to include('scan.pdf could not be converted').and include('converter crashed')
    end

    it 'keeps the chat going when a converter raises NotImplementedError or SystemStackError, ' \
       'or returns an object whose to_s is nil' do
      script = [s.tool_calls(['read_file', { path: 'scan.pdf' }]), s.text('Could not read it.'),
                s.tool_calls(['read_file', { path: 'odd.rtf' }]), s.text('Odd.'), s.text('OK.')]
      docx = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document'
      facts = with_server(script) do |server|
        RubyLLM.config.logger = Logger.new(StringIO.new)
        RubyLLM.config.file_converters['application/pdf'] = ->(_file) { raise NotImplementedError, 'no OCR here' }
        RubyLLM.config.file_converters['application/rtf'] = ->(_file) { Class.new { def to_s = nil }.new }
        deep = Class.new do
          def local? = true
          def call(_file) = raise(SystemStackError, 'stack level too deep')
        end.new
        RubyLLM.config.file_converters[docx] = deep
        chat = new_chat.with_file_store
        chat.file_store.write('scan.pdf', '%PDF-1.4 scan', content_type: 'application/pdf')
        chat.file_store.write('odd.rtf', '{\\rtf1 odd}', content_type: 'application/rtf')
        answers = [chat.ask('Read scan.pdf').content, chat.ask('Read odd.rtf').content,
                   chat.ask('And this', with: attachment('PK not a zip', 'memo.docx')).content]
        results = server.requests.flat_map { |r| r['messages'] }.select { |m| m['role'] == 'tool' }
        { answers:, unanswered: unanswered_tool_calls(chat), results: results.map { |m| m['content'] }.uniq }
      end

      expect(facts[:answers]).to eq(['Could not read it.', 'Odd.', 'OK.'])
      expect(facts[:unanswered]).to be_empty
      expect(facts[:results].map { |r| JSON.parse(r) }).to match(
        [{ 'error' => 'scan.pdf could not be converted: NotImplementedError: no OCR here' },
         { 'error' => a_string_starting_with('odd.rtf could not be converted: TypeError: ') }]
      )
    end
  end
end
