# frozen_string_literal: true

require_relative 'support/active_storage_helper'
require_relative '../ruby_llm/file_store/code_execution/code_execution_helper'
require 'digest'
require 'json'

# Guarantee (issue #28, 3): a big file in the Active Storage store costs
# memory for what is shown or in flight, not for its size. A 167 MB text
# file (2.2 million lines), each step in its own process (support/big_file.rb),
# bounding the growth of its peak resident memory: write from a File, read_file
# lines 1-100 and lines near the end, and a staged run_code that reads it and
# writes a changed copy back. On S3 with PostgreSQL only (the configuration
# production has; the steps move 0.5 GB through the S3 server), in the
# bin/test-active-storage run that has both. The old build held the file:
# it grew by 418.7 MB (write), 384.4 and 384.7 MB (the reads) and 392.4 MB
# (the staged run).
RSpec.describe RubyLLM::FileStore::ActiveStorage, 'with a big file' do
  include_context 'with code execution'

  let(:line) { 'line %08d: the quick brown fox jumps over the lazy dog, again and again' }
  let(:lines) { 2_200_000 }

  before do
    skip 'on S3 with PostgreSQL only' unless ActiveStorageSpecApp.s3? && ENV['DATABASE_URL'].start_with?('postgres')
  end

  def big_file(path)
    File.open(path, 'wb') do |file|
      (1..lines).each_slice(10_000) { |slice| file.write(slice.map { |n| "#{format(line, n)}\n" }.join) }
    end
    path
  end

  def step(*args)
    script = File.expand_path('support/big_file.rb', __dir__)
    out, err, status = Open3.capture3(RbConfig.ruby, script, *args.map(&:to_s))
    raise "#{args.first} failed: #{err}#{out}" unless status.success?

    JSON.parse(out.lines.last, symbolize_names: true)
  end

  it 'writes, reads first and last lines and runs code over 167 MB, each growing memory by a bounded amount' do
    chat = Chat.create!(title: 'Big file')
    source = big_file(File.join(@tmp, 'big.txt'))
    size = File.size(source)
    expect(size).to be > 150 << 20

    wrote = step('write', chat.id, 'big.txt', source)
    first = step('read', chat.id, 'big.txt', 1, 100)
    deep = step('read', chat.id, 'big.txt', lines - 50, 100)
    staged = step('staged', chat.id, 'big.txt', 'copy.txt')

    RSpec.configuration.reporter.message(
      "big file (#{size >> 20} MB): growth #{wrote[:growth_mb]} MB write, #{first[:growth_mb]} MB lines 1-100 " \
      "(#{first[:seconds]} s), #{deep[:growth_mb]} MB near the end, #{staged[:growth_mb]} MB staged run"
    )
    aggregate_failures do
      expect(wrote).to include(byte_size: size, digest: Digest::SHA256.file(source).hexdigest)
      expect(wrote[:growth_mb]).to be <= 64, "write grew #{wrote[:growth_mb]} MB"
      expect(first[:head]).to start_with("#{format(line, 1)}\n")
      expect(first[:tail]).to end_with("[Lines 1-100 of #{lines} in big.txt. Read on with offset: 101.]")
      expect(first[:growth_mb]).to be <= 64, "read_file 1-100 grew #{first[:growth_mb]} MB"
      expect(deep[:head]).to start_with("#{format(line, lines - 50)}\n")
      expect(deep[:tail]).to end_with("#{format(line, lines)}\n[Lines #{lines - 50}-#{lines} of #{lines} in big.txt.]")
      expect(deep[:growth_mb]).to be <= 64, "read_file near the end grew #{deep[:growth_mb]} MB"
      expect(staged).to include(stdout: "#{lines}\n", created: ['copy.txt'], unsaved: [])
      expect(staged[:copy_digest]).to eq(Digest::SHA256.hexdigest(File.read(source).gsub(/^line/, 'LINE')))
      expect(staged[:growth_mb]).to be <= 96, "the staged run grew #{staged[:growth_mb]} MB"
    end
  end
end
