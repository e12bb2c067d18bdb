# frozen_string_literal: true

require 'tmpdir'
require_relative 'support/quick_start_app'
require_relative '../ruby_llm/file_store/converters/pdf_fixtures'

# README.md's Quick start, followed from `rails new --minimal` as its text
# says (support/quick_start_app.rb reads each step from the README), on the
# Rails installed: ruby_llm 1.16 on Rails 6.1, which ruby_llm main does not
# support, and both lines on Rails 7 or later. The second question sees the
# one-line note; a new process finds the files.
RSpec.describe "README's Quick start, from rails new --minimal", :integration do
  include PdfFixtures

  rails7 = Gem::Specification.find_all_by_name('railties').map(&:version).max.to_s >= '7'

  RubyLLMSource.each_version(self, rails7 ? RubyLLMSource::SUPPORTED : %w[1.16]) do
    before do
      next if ExampleApp.bundle && system('rails', '--version', out: File::NULL, err: File::NULL)

      Prerequisites.missing(self, 'Bundler and rails are missing: bin/setup installs them')
    end

    def user_texts(request)
      request['messages'].select { |m| m['role'] == 'user' }.flat_map do |message|
        content = message['content']
        content.is_a?(Array) ? content.filter_map { |part| part['text'] } : [content.to_s]
      end
    end

    it 'gets to a second question that sees the one-line note, and a new process finds the files' do
      Dir.mktmpdir('quick-start') do |dir|
        app = QuickStartApp.new(dir, RubyLLMSource.folders(ruby_llm_version))
        server = ScriptedOpenAIServer.start([ScriptedOpenAIServer.text('Reviewed.'),
                                             ScriptedOpenAIServer.text('60 days.')])
        begin
          migrations = app.install!(server.url)
          pdf = File.join(dir, 'contract-v2.pdf')
          File.binwrite(pdf, make_pdf('Services Agreement, version 2.', 'Termination: on 60 days notice.'))
          app.ask!(pdf)
          paths = app.files_of_last_chat
        ensure
          server.stop
        end
        expect(migrations.grep(/create_ruby_llm_chat_files|create_active_storage_tables|create_chats/).size).to eq(3)
        expect(server.requests.size).to eq(2)
        expect(user_texts(server.requests[1]).join("\n"))
          .to match(%r{contract-v2\.pdf \(application/pdf, [^)]+\) is in this chat's files\.})
        expect(paths).to eq(['contract-v2.pdf'])
      rescue StandardError, RSpec::Expectations::ExpectationNotMetError
        warn app&.log.to_s
        raise
      end
    end
  end
end
