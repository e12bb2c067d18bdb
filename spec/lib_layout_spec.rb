# frozen_string_literal: true

require 'spec_helper'
require_relative 'support/constant_layout'

# The lib tree mirrors the constants, Zeitwerk style:
# RubyLLM::FileStore::Tools::ReadFile lives in
# lib/ruby_llm/file_store/tools/read_file.rb, and nowhere else adds to it.
RSpec.describe 'the lib tree' do
  lib = File.expand_path('../lib', __dir__)
  # The error classes stay together in one file, as ruby_llm keeps its own
  # in error.rb; extension.rb loads the native library and defines nothing.
  together = %w[ruby_llm/file_stores/native/errors.rb ruby_llm/file_stores/native/extension.rb]
  files = Dir[File.join(lib, 'ruby_llm/**/*.rb')] - together.map { |f| File.join(lib, f) }

  it 'has the files it checks' do
    expect(files.size).to be > 80
    expect(together.map { |f| File.file?(File.join(lib, f)) }).to all(be(true))
  end

  files.each do |file|
    it "#{file.delete_prefix("#{lib}/")} defines the constant its path names, and only inside it" do
      expect(ConstantLayout.new(lib, file).problems).to eq([])
    end
  end

  it 'names each constant that way (a file defining another constant is seen)' do
    Dir.mktmpdir do |dir|
      path = File.join(dir, 'ruby_llm/file_store/tools/read_file.rb')
      FileUtils.mkdir_p(File.dirname(path))
      File.write(path, <<~RUBY)
        module RubyLLM
          class FileStore
            def extra; end
            module Tools
              module WriteFile; end
            end
          end
        end
      RUBY
      expect(ConstantLayout.new(dir, path).problems).to contain_exactly(
        'adds def code to RubyLLM::FileStore, which is not RubyLLM::FileStore::Tools::ReadFile',
        'defines RubyLLM::FileStore::Tools::WriteFile, which is not RubyLLM::FileStore::Tools::ReadFile or inside it',
        'does not define RubyLLM::FileStore::Tools::ReadFile'
      )
    end
  end
end
