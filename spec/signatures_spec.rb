# frozen_string_literal: true

require 'spec_helper'
require_relative 'support/signature_check'

# sig/ describes the code: every class, constant and method it declares
# exists, with the parameters it says. The Rails models (RubyLLM::ActiveRecord)
# load only with Rails: spec/active_storage/signatures_spec.rb checks them.
RSpec.describe 'the RBS signatures' do
  sig = File.expand_path('../sig', __dir__)
  rails_only = ->(name) { name == 'RubyLLM::ActiveRecord' || name.start_with?('RubyLLM::ActiveRecord::') }

  it 'declare nothing the code does not define' do
    check = SignatureCheck.new(sig)
    expect(check.declarations.size).to be > 200
    expect(check.problems { |name| !rails_only.call(name) }.map(&:to_s)).to eq([])
  end

  it 'see a signature that describes nothing (the check can fail)' do
    Dir.mktmpdir do |dir|
      File.write(File.join(dir, 'gone.rbs'), <<~RBS)
        module RubyLLM
          class NativeDir
            def take_lines: (Array[String] lines) -> Array[String]
            def read_lines: (String path, ?offset: Integer, ?window: Integer) -> untyped
          end
          class Missing
          end
        end
      RBS
      problems = SignatureCheck.new(dir).problems { true }.map(&:message)
      expect(problems).to contain_exactly(
        'RubyLLM::NativeDir#take_lines is not defined',
        'RubyLLM::NativeDir#read_lines: the signature passes keyword window:, which the method does not take',
        'RubyLLM::Missing is not defined'
      )
    end
  end
end
