# frozen_string_literal: true

require_relative 'support/active_storage_helper'
require 'json'

# Guarantee: search_files on the Active Storage store costs memory for the
# part it searches, not for the file or the chat: on S3 and PostgreSQL, where
# production runs, each search runs in a process of its own
# (support/search_memory.rb) that reports the growth of its peak resident
# set. The old build downloaded a blob without its text in the row into a
# Ruby String (and copied it for the engine), and loaded a part's texts into
# copies as well.
RSpec.describe RubyLLM::FileStore::ActiveStorage, 'search memory' do
  def script(*args)
    path = File.expand_path('support/search_memory.rb', __dir__)
    out, err, status = Open3.capture3(RbConfig.ruby, path, *args.map(&:to_s))
    raise "search_memory.rb #{args.first} failed: #{err}#{out}" unless status.success?

    JSON.parse(out.lines.last, symbolize_names: true)
  end

  # On S3 and PostgreSQL only: the Disk service and SQLite add nothing here
  # but time.
  if ActiveStorageSpecApp.s3? && ActiveStorageSpecApp.postgresql?
    # The old build grew 386 MB here (160 MB: the download, and its copies).
    it 'searches a 150 MB file without its text in its row in at most 64 MB more' do
      chat = script('big', 150).fetch(:chat)
      outcome = script('search', chat, 'needle')
      expect(outcome[:result]).to eq('big.log:1527001:the needle at the end')
      expect(outcome[:growth_mb]).to be <= 64, outcome.inspect
    end

    # The issue's bound is 128 MB; the old build, which loaded 32 MB parts
    # and left them to the collector, grew 89 MB here, this one 15 MB.
    it 'searches 200 files with 80 MB of text in their rows in at most 48 MB more' do
      chat = script('rows', 200, 80).fetch(:chat)
      outcome = script('search', chat, 'needle')
      expect(outcome[:result]).to eq('rows/00199.txt:4073:the needle at the end')
      expect(outcome[:growth_mb]).to be <= 48, outcome.inspect
    end
  end
end
