# frozen_string_literal: true

require_relative 'support/active_storage_helper'

# Guarantee (issue 38, item 12): a text file too large to keep its text in
# its row is searched as it downloads, and when search_files' deadline comes
# first it answers the matches of the part it read, with their line numbers,
# and the line it reached, with the read_file offset to read on from. The
# old build downloaded the blob first and answered "No matches. [Stopped:
# the search ran out of time after 0 files. ...]".
#
# The deadline is made to come in the middle of the file, whatever the
# machine's speed: S3 answers every byte as usual, but once the first
# SearchStreamSpec::HOLD bytes of the blob have come, the next part is held back until the
# search says it is past its deadline (TextSearch#expired?, in both builds).
module SearchStreamSpec
  # 64 bytes a line, a needle every NEEDLE_EVERY lines; the download is
  # held after HOLD bytes.
  LINES = 600_000
  NEEDLE_EVERY = 20_000
  HOLD = 8 << 20

  module_function

  def line(number)
    text = (number % NEEDLE_EVERY).zero? ? "line #{number} holds the needle" : "line #{number} is plain"
    "#{text.ljust(63, '.')}\n"
  end

  # search_files' lines for the needles up to line +last+.
  def found(last) = (NEEDLE_EVERY..last).step(NEEDLE_EVERY).map { |n| "big.log:#{n}:#{line(n).chomp}\n" }

  # Waits (60 s at most) until the last search started is past its deadline.
  def wait_for_deadline(searches)
    waited_until = Process.clock_gettime(Process::CLOCK_MONOTONIC) + 60
    sleep 0.01 until searches.last&.expired? || Process.clock_gettime(Process::CLOCK_MONOTONIC) > waited_until
  end

  # Holds the S3 download back after HOLD bytes until the search is past
  # its deadline: a streamed GET's parts (this build) and ranged GETs (the
  # old build's blob.download) alike. +searches+ collects the searches.
  def held_get(searches)
    passed = 0
    lambda do |get, *args, &block|
      unless block
        wait_for_deadline(searches) if passed >= HOLD
        next get.call(*args).tap { |answer| passed += answer.content_length.to_i }
      end

      get.call(*args) do |chunk, *rest|
        wait_for_deadline(searches) if passed >= HOLD
        passed += chunk.bytesize
        block.call(chunk, *rest)
      end
    end
  end
end

RSpec.describe RubyLLM::FileStore::ActiveStorage, 'search of a big blob as it downloads' do
  let(:chat) { Chat.create!(title: 'Big search') }
  let(:store) { store_for(chat) }
  let(:lines) { SearchStreamSpec::LINES }

  # The blob, written from a temporary file as an upload is.
  def write_big_file
    Tempfile.create(['big', '.log'], binmode: true) do |file|
      (1..lines).each_slice(10_000) { |numbers| file.write(numbers.map { |n| SearchStreamSpec.line(n) }.join) }
      file.flush
      file.rewind
      store.write('big.log', file)
    end
    expect(chat.ruby_llm_chat_files.pick(:text)).to be_nil
  end

  def hold_download_after_the_first_part
    searches = []
    allow(RubyLLM::FileStores::Native::TextSearch).to receive(:start).and_wrap_original do |start, *args|
      start.call(*args).tap { |search| searches << search }
    end
    held = SearchStreamSpec.held_get(searches)
    allow_any_instance_of(Aws::S3::Client).to receive(:get_object).and_wrap_original(&held)
  end

  if ActiveStorageSpecApp.s3?
    it 'answers the matches it read and the line it reached when the deadline comes first' do
      write_big_file
      hold_download_after_the_first_part

      result = RubyLLM::FileStore::Search.run(store, 'needle', timeout: 3)

      note = result.lines.last
      reached = note[/\A\[Stopped: the search ran out of time at line (\d+) of big\.log\. /, 1]&.to_i
      expect(reached).not_to be_nil, result
      # All of the first HOLD bytes were searched, and not the whole file.
      expect(reached).to be_between(SearchStreamSpec::HOLD / 64, lines - 1)
      expect(result.lines[0...-1]).to eq(SearchStreamSpec.found(reached))
      expect(note).to include("Read the rest of that file with read_file from offset #{reached + 1};")

      # The offset it names is where the lines not searched start.
      read = RubyLLM::FileStore::Tools.for(store, tools: %i[read]).find { |tool| tool.name == 'read_file' }
      shown = read.call('path' => 'big.log', 'offset' => reached + 1, 'limit' => 1).to_s
      expect(shown).to include(SearchStreamSpec.line(reached + 1).chomp)
    end

    it 'searches the whole blob in one streamed GET when there is time' do
      write_big_file
      gets = 0
      counted = ->(get, *args, &block) { (gets += 1) && get.call(*args, &block) }
      allow_any_instance_of(Aws::S3::Client).to receive(:get_object).and_wrap_original(&counted)
      result = RubyLLM::FileStore::Search.run(store, 'needle', timeout: 600)
      expect([result, gets]).to eq([SearchStreamSpec.found(lines).join, 1])
    end
  end
end
