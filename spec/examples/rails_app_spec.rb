# frozen_string_literal: true

require_relative 'support/example_app'
require_relative '../ruby_llm/file_store/converters/pdf_fixtures'

# The guide's first example as an application (examples/rails_app, laid out
# as rails new --minimal lays one out), installed as the README's quick start
# says and booted in production mode (eager_load) with Bundler, on each
# ruby_llm line from ../shared/vendor. Its story runs through the scripted
# OpenAI-compatible server, each job in a process of its own: the first job
# sends both contracts; the next question sees contract-v2.pdf as a line;
# the model reads it with read_file (through Converters::PdfText), searches
# it for "termination" and writes notes/contract-v2.md; a new process
# loading the chat finds the notes and the extracted text.
RSpec.describe 'The guide’s Rails example as an app (examples/rails_app)', :integration do
  include PdfFixtures

  # The README's quick start shows the app's agent and job as they are
  # (spec/docs_snippets_spec.rb checks each block marked "same as" against its file).
  it "shows the app's ContractReviewer and ReviewJob in the README's quick start" do
    require_relative '../docs/snippets'
    quick_start = File.read(File.join(ExampleApp::ROOT, 'README.md'))[/^## Quick start\n(.*?)^## /m, 1]
    shown = DocsSnippets.blocks.select { |b| b.file == 'README.md' && quick_start.include?(b.code.lines.first.strip) }
    expect(shown.map(&:same_as).compact).to eq(%w[examples/rails_app/app/agents/contract_reviewer.rb
                                                  examples/rails_app/app/jobs/review_job.rb])
    expect(quick_start).to include('bin/rails g ruby_llm:install', 'bin/rails g ruby_llm:file_store:install',
                                   'require "active_storage/engine"', 'config/storage.yml')
  end

  RubyLLMSource.each_version_on_rails(self, ExampleApp.rails_version) do
    let(:s) { ScriptedOpenAIServer }
    let(:notes) { "# contract-v2.pdf\n\nTermination: 60 days' written notice (was 30 in v1).\n" }
    let(:script) do
      [s.text('I have both contracts.'),
       s.tool_calls(['read_file', { path: 'contract-v2.pdf' }]),
       s.tool_calls(['search_files', { pattern: 'termination', path: '', glob: 'contract-v2.pdf' }]),
       s.tool_calls(['write_file', { path: 'notes/contract-v2.md', content: notes }]),
       s.text('Noted in notes/contract-v2.md.')]
    end

    before do
      next if ExampleApp.bundle

      Prerequisites.missing(self, 'Bundler is missing: bin/setup installs it (Debian 12: bundler; Ruby 3.3 has one)')
    end

    def write_pdfs(dir)
      { 'contract-v1.pdf' => ['Services Agreement, version 1.', 'Termination: either party, on 30 days notice.'],
        'contract-v2.pdf' => ['Services Agreement, version 2.', 'Termination: either party, on 60 days notice.'] }
        .map { |name, pages| File.join(dir, name).tap { |path| File.binwrite(path, make_pdf(*pages)) } }
    end

    def user_texts(request)
      request['messages'].select { |m| m['role'] == 'user' }.flat_map do |message|
        content = message['content']
        content.is_a?(Array) ? content.filter_map { |part| part['text'] } : [content.to_s]
      end
    end

    def file_names(request)
      request['messages'].last['content'].then { |c| c.is_a?(Array) ? c : [] }
                         .filter_map { |part| part.dig('file', 'filename') }
    end

    def tool_results(request) = request['messages'].select { |m| m['role'] == 'tool' }.map { |m| m['content'].to_s }

    it 'installs, boots in production and runs the review story across processes' do
      Dir.mktmpdir('example-app') do |dir|
        app = ExampleApp.new(dir, RubyLLMSource.folders(ruby_llm_version))
        migrations = app.install!
        expect(migrations.grep(/create_ruby_llm_chat_files|create_active_storage_tables|create_chats/).size).to eq(3)

        chat_file = File.join(dir, 'chat_id')
        server = ScriptedOpenAIServer.start(script)
        begin
          first = app.story(server.url, 'upload', chat_file, 'Review these contracts.', *write_pdfs(dir))
          app.story(server.url, 'ask', chat_file, 'What does v2 say about termination? Keep a note.')
          loaded = app.story(server.url, 'load', chat_file)
        ensure
          server.stop
        end
        requests = server.requests

        expect(first).to include(env: 'production', eager_load: true, reviewer_loaded: true, chat_class: 'Chat')
        expect(requests.size).to eq(5)
        expect(file_names(requests[0])).to eq(%w[contract-v1.pdf contract-v2.pdf])
        expect(user_texts(requests[1]).join("\n"))
          .to match(%r{contract-v2\.pdf \(application/pdf, [^)]+\) is in this chat's files\.})
        expect(tool_results(requests[2]).last).to include('60 days notice')
        expect(tool_results(requests[3]).last).to include('contract-v2.pdf').and include('60 days notice')
        expect(tool_results(requests[4]).last).not_to include('error')
        expect(loaded).to include(env: 'production', eager_load: true, store: 'RubyLLM::FileStore::ActiveStorage',
                                  notes:)
        expect(loaded[:paths]).to include('contract-v1.pdf', 'contract-v2.pdf', 'notes/contract-v2.md')
        expect(loaded[:text]).to include('Termination: either party, on 60 days notice.')
      rescue StandardError, RSpec::Expectations::ExpectationNotMetError
        warn app&.log.to_s
        raise
      end
    end
  end
end
