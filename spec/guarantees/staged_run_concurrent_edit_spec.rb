# frozen_string_literal: true

require_relative 'staged_run_gate'

# Guarantee (issue #26, 3): a staged run never writes its copy back over an
# edit made during the run. The old build wrote every changed file back
# unconditionally: the edit that edit_file had answered as done was gone.
RSpec.describe 'Guarantee: a staged run never overwrites a concurrent edit', :native do
  include_context 'with code execution'

  let(:store) { RubyLLM::FileStore::Memory.new }

  it_behaves_like 'a staged run that keeps concurrent edits'
end
