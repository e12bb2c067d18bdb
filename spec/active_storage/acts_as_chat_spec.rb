# frozen_string_literal: true

require_relative 'support/active_storage_helper'
require_relative 'support/ruby_llm_records'

# ruby_llm's own acts_as_chat records (from each ruby_llm copy given:
# RUBY_LLM_SOURCE for main, RUBY_LLM_1_16_SOURCE for 1.16.0; in a forked
# child) keeping their files in Active Storage, driven through the scripted
# OpenAI-compatible server: bin/test-active-storage runs it on SQLite and
# PostgreSQL. Each with_server runs in a process of its own, so a chat found
# in a second one is a chat loaded again in a new process.
RSpec.describe 'acts_as_chat records with files in Active Storage', :integration do
  before(:context) { RubyLLMRecords.create_tables! }

  before { RubyLLMRecords.empty_tables! }

  let(:s) { ScriptedOpenAIServer }

  RubyLLMSource.each_version_on_rails(self, ActiveRecord.version.to_s) do
    def prepare_child = RubyLLMRecords.load_models!

    def create_chat = LlmChat.create!(**chat_options)

    # In a child: records take a protocol on ruby_llm 2.0.
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

    def upload(name, text, content_type)
      ActiveStorage::Blob.create_and_upload!(io: StringIO.new(text), filename: name, content_type:)
    end

    def tool_names(request) = (request['tools'] || []).map { |tool| tool.dig('function', 'name') }

    it 'gives Chat.create!.with_file_store its Active Storage store, keeping each attachment in one blob' do
      csv = File.join(ActiveStorageSpecApp::DIR, 'q3.csv').tap { |path| File.write(path, "region,total\nnorth,12\n") }
      facts = with_server([s.text('Read.'), s.text('Read too.')]) do
        chat = create_chat.with_file_store
        notes = upload('notes.md', "# Notes\nTermination: 30 days.\n", 'text/markdown')
        chat.ask 'Summarize these', with: notes
        blobs_after_blob = ActiveStorage::Blob.count
        chat.ask 'And this', with: csv
        rows = chat.ruby_llm_chat_files.with_attached_file.order(:path).to_a
        messages = chat.llm_messages.where(role: 'user').order(:id).map { |m| m.attachments.map(&:blob_id) }
        { returned_record: chat.class.name, store: chat.file_store.class.name, store_chat: chat.file_store.chat.id,
          id: chat.id, blobs_after_blob:, blobs: ActiveStorage::Blob.count,
          paths: rows.map(&:path), file_blobs: rows.map { |row| row.file.blob.id }, notes_blob: notes.id,
          message_blobs: messages, listed: chat.file_store.list.map(&:path) }
      end

      expect(facts).to include(returned_record: 'LlmChat', store: 'RubyLLM::FileStore::ActiveStorage',
                               store_chat: facts[:id], blobs_after_blob: 1, blobs: 2,
                               paths: %w[notes.md q3.csv], listed: %w[notes.md q3.csv])
      expect(facts[:file_blobs]).to eq(facts[:message_blobs].flatten)
      expect(facts[:file_blobs].first).to eq(facts[:notes_blob])
    end

    # Guarantee (README: a chat with files never gets stuck), on a record.
    it 'keeps an attachment whose name is long in bytes, and the record asks again after a reload' do
      name = "#{'議事録' * 35}.md" # 318 bytes
      facts = with_server([s.text('One.'), s.text('Two.'), s.text('Three.')]) do
        chat = create_chat.with_file_store
        answers = [chat.ask('Keep this', with: upload(name, "# a\n", 'text/markdown')).content,
                   chat.ask('And this', with: upload(name, "# b\n", 'text/markdown')).content]
        answers << find_chat(chat.id).ask('Still there?').content
        { answers:, paths: chat.file_store.list.map(&:path) }
      end

      expect(facts[:answers]).to eq(%w[One. Two. Three.])
      expect(facts[:paths].map(&:bytesize)).to all(be <= 255)
      expect(facts[:paths]).to all(start_with('議事録').and(end_with('.md')))
      expect(facts[:paths].size).to eq(2)
    end

    it 'gives a chat loaded again by find its store and tools, and destroying it leaves no blob' do
      script = [s.text('Noted.'), s.tool_calls(['read_file', { path: 'notes.md' }]), s.text('30 days.')]
      facts = with_server(script) do |server|
        first = create_chat.with_file_store
        first.ask 'Keep this', with: upload('notes.md', "# Notes\nTermination: 30 days.\n", 'text/markdown')
        empty = create_chat.with_file_store # no file yet: nothing to give it again
        chat = find_chat(first.id)
        chat.ask 'What is the notice period?'
        kept = { store: chat.file_store.class.name, store_chat: chat.file_store.chat.id, id: chat.id,
                 empty_store: find_chat(empty.id).file_store, requests: server.requests,
                 blobs_before: ActiveStorage::Blob.count }
        chat.destroy!
        kept.merge(blobs: ActiveStorage::Blob.count, rows: RubyLLM::ActiveRecord::ChatFile.count,
                   stored: ActiveStorageSpecApp.stored_files)
      end

      expect(facts).to include(store: 'RubyLLM::FileStore::ActiveStorage', store_chat: facts[:id], empty_store: nil,
                               blobs_before: 1, blobs: 0, rows: 0, stored: [])
      first, second, third = facts[:requests]
      expect(tool_names(first)).to eq(%w[list_files read_file search_files write_file edit_file])
      expect(tool_names(second)).to eq(tool_names(first))
      expect(user_contents(second).first)
        .to eq("Keep this\n\nnotes.md (text/markdown, 30 bytes) is in this chat's files.")
      tool_result = third['messages'].find { |m| m['role'] == 'tool' }['content']
      expect(tool_result.to_s).to include('Termination: 30 days.')
    end

    it 'shows an attachment under the same name after the model changed it, in a new process too' do
      edit = s.tool_calls(['edit_file', { path: 'brief.txt', old_text: 'draft', new_text: 'final version' }])
      first = with_server([edit, s.text('Edited.'), s.text('Seen.')]) do |server|
        chat = create_chat.with_file_store
        chat.ask 'Tidy this', with: upload('brief.txt', "A draft brief.\n", 'text/plain')
        chat.ask 'Anything else?'
        { id: chat.id, line: user_contents(server.requests.last).first, paths: chat.file_store.list.map(&:path) }
      end
      again = with_server([s.text('Still seen.')]) do |server|
        chat = find_chat(first[:id])
        chat.ask 'And now?'
        { lines: user_contents(server.requests.last).first(2), paths: chat.file_store.list.map(&:path),
          text: chat.file_store.read('brief.txt') }
      end

      expect(first[:line]).to eq("Tidy this\n\nbrief.txt (text/plain, 15 bytes) is in this chat's files.")
      expect(again).to eq(lines: [first[:line], 'Anything else?'], paths: ['brief.txt'],
                          text: "A final version brief.\n")
      expect(first[:paths]).to eq(['brief.txt'])
    end

    it 'says to save the chat first when with_file_store is given an unsaved record, on every line' do
      facts = with_server([]) do
        [-> { LlmChat.new(**chat_options).with_file_store }, lambda {
                                                               LlmChat.new(**chat_options).with_file_store(:memory)
                                                             }]
          .map do |call|
            call.call
            nil
          rescue StandardError => e
            [e.class.name, e.message]
          end
      end

      expect(facts).to all(eq(['ArgumentError', 'with_file_store needs a saved chat: save it first ' \
                                                '(LlmChat.create!(...) or chat.save!), so its files have a chat to ' \
                                                'belong to.']))
    end

    it "names the generator and the migration when the table of the chats' files is missing, before any ask" do
      facts = with_server([s.text('Never asked.')]) do |server|
        outcomes = []
        ActiveRecord::Base.transaction do # DDL rolls back on SQLite and PostgreSQL
          ActiveRecord::Base.connection.drop_table(:ruby_llm_chat_files)
          ActiveRecord::Base.connection.schema_cache.clear_data_source_cache!('ruby_llm_chat_files')
          reviewer = Class.new(RubyLLM::Agent) do
            chat_model LlmChat
            model 'gpt-4.1-mini', **RubyLLMSource.chat_options
            file_store
          end
          outcomes = [-> { create_chat.with_file_store }, -> { reviewer.create! }].map do |call|
            call.call
            nil
          rescue StandardError => e
            [e.class.name, e.message]
          end
          raise ActiveRecord::Rollback
        end
        ActiveRecord::Base.connection.schema_cache.clear_data_source_cache!('ruby_llm_chat_files')
        { outcomes:, requests: server.requests.size }
      end

      expect(facts[:outcomes]).to all(eq(['RubyLLM::ConfigurationError',
                                          "The table of the chats' files, ruby_llm_chat_files, is missing: run " \
                                          'bin/rails g ruby_llm:file_store:install, then bin/rails db:migrate.']))
      expect(facts[:requests]).to eq(0)
    end

    it "gives an agent's records the agent's store on create! and find, and an owner's view with owner:" do
      facts = with_server([s.text('One.'), s.text('Two.')]) do |server|
        reviewer = Class.new(RubyLLM::Agent) do
          chat_model LlmChat
          model 'gpt-4.1-mini', **RubyLLMSource.chat_options
          file_store tools: :read
        end
        created = reviewer.create!
        created.ask 'Keep this', with: upload('brief.md', "# Brief\n", 'text/markdown')
        found = reviewer.find(created.id)
        found.ask 'Again'
        ada = User.create!(name: 'Ada')
        owned = find_chat(created.id).with_file_store(owner: ada)
        owned.file_store.write('fetched/ada.md', 'for Ada')
        { created_store: created.file_store.class.name, found_store: found.file_store.class.name,
          tools: server.requests.map { |request| tool_names(request) },
          owner: owned.file_store.owner&.id, ada: ada.id, owned_paths: owned.file_store.list.map(&:path),
          plain_paths: find_chat(created.id).file_store.list.map(&:path) }
      end

      expect(facts).to include(created_store: 'RubyLLM::FileStore::ActiveStorage',
                               found_store: 'RubyLLM::FileStore::ActiveStorage', owner: facts[:ada],
                               owned_paths: %w[brief.md fetched/ada.md], plain_paths: %w[brief.md])
      expect(facts[:tools]).to eq([%w[list_files read_file search_files]] * 2)
    end
  end
end
