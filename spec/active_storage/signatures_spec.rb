# frozen_string_literal: true

require_relative 'support/active_storage_helper'
require_relative '../support/signature_check'

# The signatures of the Rails models, which load only with Rails (the rest
# are checked by spec/signatures_spec.rb).
RSpec.describe 'the RBS signatures of the Rails models' do
  it 'declare nothing the code does not define' do
    check = SignatureCheck.new(File.expand_path('../../sig', __dir__))
    names = check.declarations.map(&:last).select { |name| name.start_with?('RubyLLM::ActiveRecord') }
    expect(names).to include('RubyLLM::ActiveRecord::ChatFile', 'RubyLLM::ActiveRecord::HasChatFiles')
    expect(check.problems { |name| names.include?(name) }.map(&:to_s)).to eq([])
  end
end
