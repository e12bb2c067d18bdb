# frozen_string_literal: true

require_relative 'support/active_storage_helper'
require_relative 'support/fault_proxy'
require_relative '../ruby_llm/file_store/code_execution/code_execution_helper'

# Guarantee (issue #38, 5): a staged run's save keeps to the run's time
# limit on a slow S3, since the deadline is looked at before each file's
# upload: with every PUT answered a second late (FaultProxy), run_code with
# timeout: 5 making 40 files answers within the save's deadline (the limit,
# and at least SAVE_TIME_FLOOR after a short run) plus one late PUT, the
# chat's lock free again, and names the files it did not save, saying the
# time ran out; those leave no blob or object. The old build looked at the
# deadline only between batches of 500 files and saved the first batch
# whole: it answered after 81 s.
RSpec.describe RubyLLM::FileStore::ActiveStorage, 'saving a staged run on a slow S3' do
  include_context 'with code execution'

  let(:chat) { Chat.create!(title: 'slow save') }
  let(:store) { store_for(chat) }
  let(:timeout) { 5 }
  let(:late) { 1 }

  include_context 'S3 behind a fault proxy'

  it 'answers within the deadline plus one late PUT, naming the files it did not save' do
    runner = runner_for(store, python: false, shell: true, ruby: false, timeout:)
    @proxy.fault(:delay, methods: %w[PUT], seconds: late)
    started = Process.clock_gettime(Process::CLOCK_MONOTONIC)
    answer = runner.tool.call('language' => 'shell',
                              'code' => 'for i in $(seq -w 1 40); do echo "$i" > "out_$i.txt"; done')
    took = Process.clock_gettime(Process::CLOCK_MONOTONIC) - started
    @proxy.fault(:pass)

    floor = RubyLLM::FileStore::CodeExecution::Runs::SAVE_TIME_FLOOR
    expect(took).to be < timeout + floor + late + 2
    saved = store.list.map(&:path)
    unsaved = (1..40).map { |i| "out_#{i.to_s.rjust(2, '0')}.txt" } - saved
    expect(saved.size).to be_between(1, 20)
    text = answer.to_s
    puts "\n  staged save: #{took.round(1)} s, #{saved.size} of 40 files saved"
    expect(text).to include(RubyLLM::FileStores::Native::ManyWrites::OUT_OF_TIME)
    unsaved.each { |path| expect(text).to include(path) }
    expect([blob_count, stored_files.size]).to eq([saved.size, saved.size])
    expect(tools_for(store).fetch('write_file').call('path' => 'after.txt', 'content' => "x\n"))
      .to start_with('Created after.txt')
  end

  it 'names every file unsaved, saying the file store could not be reached, when S3 answers 500' do
    runner = runner_for(store, python: false, shell: true, ruby: false, timeout:)
    @proxy.fault(:error, methods: %w[PUT])
    answer = runner.tool.call('language' => 'shell', 'code' => 'for i in 1 2 3; do echo "$i" > "out_$i.txt"; done')

    text = answer.to_s
    expect(text).to include('The file store could not be reached')
    %w[out_1.txt out_2.txt out_3.txt].each { |path| expect(text).to include(path) }
    expect([store.list, blob_count, stored_files]).to eq([[], 0, []])
  end
end
