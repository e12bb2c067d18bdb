# frozen_string_literal: true

require 'tmpdir'

# Each example gets a fresh folder in @tmp, removed after it.
RSpec.shared_context 'in a temporary folder' do
  around do |example|
    Dir.mktmpdir('file-stores-spec') do |dir|
      @tmp = dir
      example.run
    end
  end
end
