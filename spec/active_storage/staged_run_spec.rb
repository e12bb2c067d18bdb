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
end
