# frozen_string_literal: true

require 'open3'
require 'rbconfig'

# Every native call under GC.stress: a collection at every allocation shakes
# out Ruby objects the binding forgets to keep alive while it builds results.
# It runs in a fresh Ruby, whose small heap keeps GC.stress fast.
RSpec.describe 'Native calls under GC.stress', :native do
  it 'keep every result intact' do
    Prerequisites.test_hooks(self)
    script = File.expand_path('../../../scripts/gc_stress.rb', __dir__)
    output, status = Open3.capture2e(RbConfig.ruby, script)
    expect(status).to be_success, output
    expect(output).to include('gc stress: all native calls gave intact results')
  end
end
