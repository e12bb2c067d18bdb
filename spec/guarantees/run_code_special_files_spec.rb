# frozen_string_literal: true

require_relative 'run_code_helper'

# Guarantee (issue #26, 12): a run cannot leave a special file (a FIFO, a
# socket) in the store, where no file tool can read, write or delete it.
# The old sweep kept a FIFO put in place of a store file and named nothing:
# write_file then answered "not a regular file" and delete_file "does not
# exist", so the path was lost to the tools. Now the sweep removes the
# special files a run made or put in place of a file, names them, and a
# store file so replaced is named among the deleted.
RSpec.describe 'Guarantee: run_code leaves no special files in the store', :native do
  include_context 'with code execution'
  include RunCodeHelper

  let(:root) { File.join(@tmp, 'store') }
  let(:store) { RubyLLM::NativeDir.new(root) }
  let(:tools) { RubyLLM::FileStore::Tools.for(store).to_h { |tool| [tool.name, tool] } }

  it 'removes a FIFO put in place of a store file, names it, and the path works again', :aggregate_failures do
    store.write('data.csv', "a,b\n")
    result = shell(shell_runner(store), 'rm data.csv && mkfifo data.csv && mkfifo pipe && echo done')
    expect(result.stdout).to eq("done\n")
    expect(result.deleted).to eq(['data.csv'])
    expect(result.notes.join).to match(/Removed, special files.*: data\.csv, pipe\./)
    expect(everything(root).map(&:first)).to eq([])
    expect(tools['write_file'].call('path' => 'data.csv', 'content' => "c\n")).to start_with('Created data.csv')
    expect(store.read('data.csv')).to eq("c\n")
  end

  it 'removes special files a staged run made, and saves the rest', :aggregate_failures do
    memory = RubyLLM::FileStore::Memory.new
    memory.write('in.txt', "x\n")
    result = shell(shell_runner(memory), 'mkfifo fifo && echo y > out.txt', files: ['in.txt'])
    expect(result.created).to eq(['out.txt'])
    expect(memory.list.map(&:path).sort).to eq(%w[in.txt out.txt])
  end
end
