# frozen_string_literal: true

require_relative 'run_code_helper'

# Guarantee (issue #16, 1): a tree of any depth in a run's folder, made by
# the code or there before, neither crashes nor breaks run_code. The walks
# before and after a run go as deep as a store path may (64 names), never
# build a path longer than one name, and name what they did not walk; what
# a run made deeper than that is removed, and the next run works.
RSpec.describe 'Guarantee: run_code survives folder trees of any depth', :native do
  include_context 'with code execution'
  include RunCodeHelper

  let(:root) { File.join(@tmp, 'store') }
  let(:levels) { 2_100 } # "a/" 2,100 times: past PATH_MAX (4096)
  let(:make_deep) do
    "import os\nfor _ in range(#{levels}):\n    os.mkdir('a')\n    os.chdir('a')\n" \
      "open('x.txt', 'w').write('x')\nprint('made')"
  end

  after { RubyLLM::FileStores::Native::RunTree.remove(@tmp, 'store') }

  it 'in place: a run that nests folders 2,100 deep gets its output, the tree is removed, and the next run works' do
    runner = runner_for(RubyLLM::NativeDir.new(root))
    result = python(runner, make_deep)
    expect(result.stdout).to eq("made\n")
    expect(result.notes.join).to include('Removed, folders nested deeper than a file path may go: ' \
                                         "#{(['a'] * 64).join('/')}.")
    expect(everything(root).size).to eq(63) # a, a/a, ... down to the limit, and nothing below
    again = python(runner, "open('again.txt', 'w').write('a')\nprint('ok')")
    expect(again.to_h).to include(stdout: "ok\n", created: ['again.txt'])
  end

  it 'staged: the same run on a Memory store gets its output and the next run works' do
    runner = runner_for(RubyLLM::FileStore::Memory.new)
    result = python(runner, make_deep)
    expect(result.stdout).to eq("made\n")
    expect(result.notes.join).to include('nested deeper than a file path may go')
    expect(python(runner, 'print("ok")').stdout).to eq("ok\n")
  end

  it 'in place: a tree deeper than the limit made by another process is left, named, and runs still work' do
    FileUtils.mkdir_p(root)
    deep_tree(root, 100)
    runner = runner_for(RubyLLM::NativeDir.new(root))
    result = python(runner, "open('ok.txt', 'w').write('ok')\nprint('ok')")
    expect(result.to_h).to include(stdout: "ok\n", created: ['ok.txt'])
    expect(result.notes.join).to include("were not checked: #{(['a'] * 64).join('/')}.")
    expect(File.exist?(File.join(root, *(['a'] * 100), 'x.txt'))).to be(true)
  end
end
