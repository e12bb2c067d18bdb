# frozen_string_literal: true

require_relative 'support/active_storage_helper'
require_relative '../guarantees/staged_run_gate'

# Guarantee (issue #26, 3) on Active Storage: a staged run writes a file back
# only when the chat's file is still the version it copied in, checked under
# the chat's lock; the old build wrote its copy over the edit.
RSpec.describe RubyLLM::FileStore::ActiveStorage, 'under a staged run_code' do
  include_context 'with code execution'

  let(:chat) { Chat.create!(title: 'Staged run') }
  let(:store) { store_for(chat) }

  it_behaves_like 'a staged run that keeps concurrent edits'

  # As a read-only NativeDir's folder is: the code's writes fail in the code.
  it "binds a read-only chat's staged copy read-only, and the chat's files stay as they were" do
    store.write('notes/plan.md', "one\n")
    read_only = store_for(chat, read_only: true)
    result = runner_for(read_only, python: false, ruby: false, shell: true)
             .run(language: 'shell', files: ['notes'], code: <<~SH)
               cat notes/plan.md
               echo two >> notes/plan.md || echo refused
               echo new > new.md || echo refused
             SH
    expect(result).to have_attributes(stdout: "one\nrefused\nrefused\n", created: [], changed: [], unsaved_files: [],
                                      stderr: a_string_including('Read-only file system'))
    expect(result.notes).to include(RubyLLM::FileStore::CodeExecution::Report::READ_ONLY)
    expect(store.list.map(&:path)).to eq(['notes/plan.md'])
    expect(store.read('notes/plan.md')).to eq("one\n")
  end
end
