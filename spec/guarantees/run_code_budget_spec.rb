# frozen_string_literal: true

require_relative 'run_code_helper'

# Guarantee (issue #16, 4): what one run may leave is held to a budget, of
# files and folders (files_budget, 10,000 by default) and of bytes of files,
# apparent and allocated each (bytes_budget, 256 MB), hidden ones included.
# The budget is checked on lstat alone, before anything is read or hashed:
# sparse files that cost the sandbox nothing cannot make the host read or
# keep gigabytes. The result names what was not kept, and why.
RSpec.describe 'Guarantee: a run leaves no more than its budget', :native do
  include_context 'with code execution'
  include RunCodeHelper

  let(:budget) { 256 * 1024 * 1024 }
  # Thirteen sparse files of 100 MB, one hidden: 1.3 GB that costs the
  # sandbox no disk. In walk order (names sorted) the hidden one and
  # sparse-01.bin fit the budget.
  let(:sparse) do
    "for i in $(seq -w 1 12); do truncate -s 100M sparse-$i.bin; done\ntruncate -s 100M .hidden.bin\necho done"
  end
  let(:unkept) { (2..12).map { |i| format('sparse-%02d.bin', i) } }
  let(:roomy) { { file_size: 256 * 1024 * 1024 } }

  def kept_bytes(root) = everything(root).select { |_, st| st.file? }.sum { |_, st| st.size }

  it 'in place: sparse files past the budget are removed and named, the rest kept, the output back' do
    root = File.join(@tmp, 'store')
    result = shell(shell_runner(RubyLLM::NativeDir.new(root), **roomy), sparse)
    expect(result.stdout).to eq("done\n")
    expect(kept_bytes(root)).to be <= budget
    expect(result.created).to eq(['sparse-01.bin'])
    expect(result.unsaved_files).to eq(unkept)
    expect(result.notes.join("\n")).to include('Not kept, past what one run may leave (10000 files and folders ' \
                                               'and 256 MB of files it creates or changes, hidden ones included): ' \
                                               "#{unkept.join(', ')}.")
  end

  it 'staged: the Memory store receives no more than the budget' do
    store = RubyLLM::FileStore::Memory.new
    result = shell(shell_runner(store, **roomy), sparse)
    expect(result.stdout).to eq("done\n")
    expect(store.list.sum(&:byte_size)).to be <= budget
    expect(store.list.map(&:path)).to eq(['sparse-01.bin'])
    expect(result.unsaved_files).to eq(unkept)
  end

  it 'counts files and folders, hidden ones too, and keeps no more than files_budget of them' do
    root = File.join(@tmp, 'store')
    result = shell(shell_runner(RubyLLM::NativeDir.new(root), files_budget: 50),
                   'mkdir .cache; for i in $(seq 1 100); do : > .cache/f$i; : > v$i.txt; done; echo done')
    expect(result.stdout).to eq("done\n")
    expect(everything(root).size).to eq(50)
    expect(result.notes.join("\n")).to match(/past what one run may leave \(50 files and folders.*\d+ more were/m)
  end
end
