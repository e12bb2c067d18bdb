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
end
