# frozen_string_literal: true

require_relative 'run_code_helper'

# Guarantee (issue #16, 7): a store's max_bytes holds after a run. Every
# file a run leaves counts, hidden ones too; what does not fit is removed,
# largest first, and named. Names the store cannot address (a control
# character, bytes that are not UTF-8) are removed and named escaped. Come
# what may, the result carries the run's output, with a note.
RSpec.describe 'Guarantee: max_bytes holds after a run, and the output comes back', :native do
  include_context 'with code execution'
  include RunCodeHelper

  let(:root) { File.join(@tmp, 'store') }
  let(:cap) { 1024 * 1024 }

  def total(root) = everything(root).select { |_, st| st.file? }.sum { |_, st| st.size }

  it 'counts hidden files and folders against the cap and removes what does not fit' do
    store = RubyLLM::NativeDir.new(root, max_bytes: cap)
    store.write('small.txt', 'x' * 1000)
    result = shell(shell_runner(store), <<~SH)
      mkdir -p .cache/deep && head -c 3000000 /dev/zero > .cache/deep/big.bin
      head -c 2000000 /dev/zero > .hidden.bin
      head -c 500000 /dev/zero > fits.bin
      echo done
    SH
    expect(result.stdout).to eq("done\n")
    expect(total(root)).to be <= cap
    expect(result.unsaved_files).to eq(%w[.cache/deep/big.bin .hidden.bin])
    expect(result.created).to eq(['fits.bin'])
    expect(store.read('small.txt')).to eq('x' * 1000)
  end

  it 'removes names the store cannot address, still holds the cap, and returns the output' do
    store = RubyLLM::NativeDir.new(root, max_bytes: cap)
    result = shell(shell_runner(store), <<~SH)
      head -c 600000 /dev/zero > "$(printf 'bad\\nname.bin')"
      head -c 600000 /dev/zero > "$(printf 'not\\377utf8.bin')"
      head -c 700000 /dev/zero > a.bin
      head -c 800000 /dev/zero > b.bin
      echo done
    SH
    expect(result.stdout).to eq("done\n")
    expect(everything(root).map(&:first)).to eq(['a.bin'])
    expect(result.unsaved_files).to eq(['b.bin'])
    expect(result.files_error).to include('full')
    expect(result.notes.join).to include('with names the files cannot hold (control characters, or not UTF-8): ' \
                                         'bad\\nname.bin, not�utf8.bin.')
  end

  # One rule for a folder over its cap, a store's own or a tree's mount: the
  # files_error, as a staged store's refused write is; with two over, the
  # first store's, the other's a note.
  it "says a tree's folders over their caps in files_error, the second as a note", :aggregate_failures do
    store = RubyLLM::NativeDir.new(root, max_bytes: cap)
    notes = RubyLLM::NativeDir.new(File.join(@tmp, 'notes'), max_bytes: 2 * cap)
    tree = RubyLLM::FileStore::Mounts.new(store, 'notes' => notes)
    result = shell(shell_runner(tree), <<~SH)
      head -c 3000000 /dev/zero > notes/big.bin
      echo done
    SH
    expect(result).to have_attributes(stdout: "done\n", unsaved_files: ['notes/big.bin'],
                                      files_error: a_string_including('full', "limit is #{2 * cap} bytes"))
    result = shell(shell_runner(tree), 'head -c 2000000 /dev/zero > a.bin; head -c 3000000 /dev/zero > notes/b.bin')
    expect(result).to have_attributes(unsaved_files: %w[a.bin notes/b.bin],
                                      files_error: a_string_including("limit is #{cap} bytes"))
    expect(result.notes).to include(a_string_including("limit is #{2 * cap} bytes"))
  end
end

# Guarantee (issue #26, 8): max_bytes holds over many in-place runs and for
# a run that grows a file. The old build counted the hidden files a run left
# for that run only, left them out of total_size and the write check, and
# did not check a run that only grew an existing file.
RSpec.describe 'Guarantee: max_bytes holds over runs that leave hidden files and grow files', :native do
  include_context 'with code execution'
  include RunCodeHelper

  let(:root) { File.join(@tmp, 'store') }
  let(:cap) { 1024 * 1024 }
  let(:store) { RubyLLM::NativeDir.new(root, max_bytes: cap) }

  def total(root) = everything(root).select { |_, st| st.file? }.sum { |_, st| st.size }

  def tool(name) = RubyLLM::FileStore::Tools.for(store).find { |t| t.name == name }

  it 'counts what earlier runs left hidden, in later runs and in write_file' do
    runner = shell_runner(store)
    answers = (1..5).map do |n|
      runner.tool.call('language' => 'shell', 'code' => "mkdir -p .cache && head -c 600000 /dev/zero > .cache/#{n}.bin")
    end
    expect(total(root)).to be <= cap
    expect(answers.drop(1).map { |answer| answer[:unsaved_files] }).to eq((2..5).map { |n| [".cache/#{n}.bin"] })
    expect(store.total_size).to eq(600_000)
    answer = tool('write_file').call('path' => 'big.txt', 'content' => 'x' * 500_000)
    expect(answer).to include(error: a_string_including('full'))
    expect(total(root)).to be <= cap
  end

  it 'holds a run that grows an existing file to the cap, and names it' do
    store.write('data.csv', "a\n" * 1000)
    store.write('keep.txt', 'keep')
    answer = shell_runner(store).tool.call('language' => 'shell',
                                           'code' => "head -c 3000000 /dev/zero >> data.csv\necho done")
    expect(answer).to include(stdout: "done\n", unsaved_files: ['data.csv'])
    expect(answer[:files_error]).to include('data.csv grew past it')
    expect(answer).not_to include(:changed)
    expect(total(root)).to be <= cap
    expect(store.read('keep.txt')).to eq('keep')
  end

  it 'removes what the run made before what it grew' do
    store.write('data.csv', "a\n" * 1000)
    answer = shell_runner(store).tool.call('language' => 'shell', 'code' => <<~SH)
      head -c 100 /dev/zero >> data.csv
      head -c 1100000 /dev/zero > made.bin
    SH
    expect(answer).to include(unsaved_files: ['made.bin'], changed: ['data.csv'])
    expect(total(root)).to be <= cap
  end
end
