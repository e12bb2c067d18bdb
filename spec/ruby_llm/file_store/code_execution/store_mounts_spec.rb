# frozen_string_literal: true

require_relative 'code_execution_helper'

# run_code over a RubyLLM::FileStore::Mounts tree (issue #30): the code sees
# every mount at its path, read-only mounts read-only, in place and staged.
RSpec.describe RubyLLM::FileStore::CodeExecution, 'over a tree of stores' do
  include_context 'with code execution'

  let(:handbook_dir) { File.join(@tmp, 'handbook') }
  let(:handbook) { RubyLLM::NativeDir.new(handbook_dir, read_only: true) }
  let(:code) do
    'cat handbook/policy.md; echo mine > handbook/new.md 2>/dev/null || echo refused; ' \
      'cat handbook/policy.md > copy.md'
  end

  before do
    FileUtils.mkdir_p(handbook_dir)
    File.write(File.join(handbook_dir, 'policy.md'), "25 days\n")
  end

  it 'runs in place in the default folder with a read-only folder mount bound read-only' do
    chat = RubyLLM::NativeDir.new(File.join(@tmp, 'chat'))
    tree = RubyLLM::FileStore::Mounts.new(chat, 'handbook' => handbook)
    runner = runner_for(tree, shell: true)
    expect(runner.in_place?).to be(true)
    result = runner.run(language: 'shell', code:)
    expect(result.stdout).to eq("25 days\nrefused\n")
    expect(result.created).to eq(['copy.md'])
    expect(chat.read('copy.md')).to eq("25 days\n")
    expect(File.exist?(File.join(handbook_dir, 'new.md'))).to be(false)
    expect(Dir.children(File.join(@tmp, 'chat'))).to eq(['copy.md']) # the mount point is taken away
  end

  it 'stages the run when a mount is not a read-only folder, and names what it wrote under a read-only one' do
    scratch = RubyLLM::FileStore::Memory.new
    scratch.write('seed.md', "seed\n")
    tree = RubyLLM::FileStore::Mounts.new(RubyLLM::FileStore::Memory.new, 'handbook' => handbook, 'scratch' => scratch)
    runner = runner_for(tree, shell: true)
    expect(runner.in_place?).to be(false)
    result = runner.run(language: 'shell', code: "#{code}; cat scratch/seed.md > scratch/out.md",
                        files: %w[handbook scratch])
    expect(result.stdout).to eq("25 days\n")
    expect(result.unsaved_files).to eq(['handbook/new.md'])
    expect(result.files_error).to eq('handbook/new.md is read-only. Write your own copy elsewhere, such as ' \
                                     'notes/new.md.')
    expect(scratch.read('out.md')).to eq("seed\n")
    expect(tree.read('copy.md')).to eq("25 days\n")
    expect(File.exist?(File.join(handbook_dir, 'new.md'))).to be(false)
  end
end
