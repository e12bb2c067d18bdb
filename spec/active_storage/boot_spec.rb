# frozen_string_literal: true

require_relative 'support/active_storage_helper'

# A Rails app that boots with the gem loaded writes, lists and searches
# through the store, and says nothing on its standard error: loading the
# gem's models must not touch Active Storage's while Active Record loads
# (a circular autoload on the classic autoloader, "already initialized
# constant ActiveStorage::Blob::..." on Rails 7.2). Each app boots in a
# process of its own, on each autoloader its Rails has.
RSpec.describe RubyLLM::FileStore::ActiveStorage, 'in a booted Rails app' do
  autoloaders = Rails::VERSION::MAJOR < 7 ? %w[classic zeitwerk] : %w[zeitwerk]

  autoloaders.each do |autoloader|
    it "writes, lists and searches on the #{autoloader} autoloader (Rails #{Rails.version}), with no warnings" do
      chat = Chat.create!(title: 'Boot')
      out, err, status = Open3.capture3({ 'RUBY_LLM_AS_AUTOLOADER' => autoloader },
                                        RbConfig.ruby, ActiveStorageSpecHelpers::WORKER, 'check', chat.id.to_s,
                                        'notes/boot.md')
      expect([err, status.success?]).to eq(['', true])
      expect(out).to eq({ list: ['notes/boot.md'], search: "notes/boot.md:1:needle in a booted app\n" }.inspect)
    end
  end
end
