# frozen_string_literal: true

require_relative 'support/active_storage_helper'
require_relative 'support/ruby_llm_records'
require_relative 'support/fault_proxy'

# Guarantee (issue #38, 4) through a real chat, on ruby_llm main and 1.16:
# a write_file whose PUT S3 answers 500 (FaultProxy, in the chat's process)
# gives the model { error: } saying the file store could not be reached, the
# chat answers, and a later ask, S3 well again, writes the file. The old
# build raised Aws::S3::Errors::InternalError out of the tool, and so out of
# ask; ruby_llm main then raised PendingToolCallsError on every later ask.
RSpec.describe 'a chat whose S3 fails', :integration do
  before(:context) { RubyLLMRecords.create_tables! if ActiveStorageSpecApp.s3? }

  before do
    skip 'on the S3 service only' unless ActiveStorageSpecApp.s3?
    RubyLLMRecords.empty_tables!
  end

  let(:s) { ScriptedOpenAIServer }

  RubyLLMSource.each_version_on_rails(self, ActiveRecord.version.to_s) do
    def prepare_child = RubyLLMRecords.load_models!

    def create_chat
      LlmChat.create!(model: 'gpt-4.1-mini', **RubyLLMSource.chat_options.slice(:provider, :assume_model_exists),
                      **(LlmChat.method_defined?(:protocol=) ? { protocol: :chat_completions } : {}))
    end

    it 'answers a failed write with { error: } and asks again once S3 is back' do
      write = ->(text) { s.tool_calls(['write_file', { path: 'notes.md', content: text }]) }
      script = [write.call("# Notes\n"), s.text('The store is down.'), write.call("# Notes\n"), s.text('Saved.')]
      facts = with_server(script) do |server|
        proxy = FaultProxy.start(ActiveStorageSpecApp::S3_ENDPOINT)
        proxy.route(ActiveStorage::Blob.service) do
          chat = create_chat.with_file_store
          proxy.fault(:error, methods: %w[PUT])
          answers = [chat.ask('Save a note').content]
          failed = { rows: RubyLLM::ActiveRecord::ChatFile.count, blobs: ActiveStorage::Blob.count,
                     stored: ActiveStorageSpecApp.stored_files }
          proxy.fault(:pass)
          answers << chat.ask('Try again').content
          { answers:, failed:, results: server.requests.flat_map { tool_contents(_1) }.uniq,
            paths: chat.file_store.list.map(&:path), text: chat.file_store.read('notes.md') }
        ensure
          proxy.stop
        end
      end

      expect(facts[:answers]).to eq(['The store is down.', 'Saved.'])
      expect(facts[:failed]).to eq(rows: 0, blobs: 0, stored: [])
      expect(facts[:results].first.to_s).to match(/The file store could not be reached: .*InternalError.*Try again/)
      expect(facts[:results].last.to_s).to start_with('Created notes.md')
      expect(facts).to include(paths: ['notes.md'], text: "# Notes\n")
    end
  end
end
