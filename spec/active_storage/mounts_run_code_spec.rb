# frozen_string_literal: true

require_relative 'support/active_storage_helper'
require_relative '../ruby_llm/file_store/code_execution/code_execution_helper'

# run_code over a tree whose default store is a folder and whose mount is the
# chat's Active Storage store (issue #30): the code works in the folder in
# place, and the mount's files named in files are copied in at its path and
# written back through it after the run.
RSpec.describe RubyLLM::FileStore::CodeExecution, 'over a folder with an Active Storage mount' do
  include_context 'with code execution'

  let(:chat) { Chat.create!(title: 'Mounted run') }
  let(:memories) { store_for(chat) }
  let(:folder) { RubyLLM::NativeDir.new(File.join(@tmp, 'chat')) }
  let(:tree) { RubyLLM::FileStore::Mounts.new(folder, 'memories' => memories) }

  it 'runs in the folder, with the named files of the mount copied in and saved back' do
    folder.write('data.csv', "a,b\n")
    memories.write('profile.md', "likes tea\n")
    memories.write('other.md', "not named\n")
    runner = runner_for(tree, python: false, ruby: false, shell: true)
    expect(runner.in_place?).to be(true)
    result = runner.run(language: 'shell', files: ['memories/profile.md'], code: <<~SH)
      cat data.csv memories/profile.md
      ls memories
      echo "likes coffee" > memories/profile.md
      cat data.csv > memories/copy.csv
      echo b > here.md
    SH
    expect(result.stdout).to eq("a,b\nlikes tea\nprofile.md\n")
    expect(result.created).to eq(%w[here.md memories/copy.csv])
    expect(result.changed).to eq(['memories/profile.md'])
    expect(memories.read('profile.md')).to eq("likes coffee\n")
    expect(memories.read('copy.csv')).to eq("a,b\n")
    expect(folder.read('here.md')).to eq("b\n")
    expect(Dir.children(File.join(@tmp, 'chat')).sort).to eq(%w[data.csv here.md])
  end
end
