# frozen_string_literal: true

require_relative 'code_execution_helper'

RSpec.describe RubyLLM::FileStore::CodeExecution, 'with mounts and skills' do
  include_context 'with code execution'

  let(:shared) { File.join(@tmp, 'shared') }
  let(:skill) { File.join(@tmp, 'skills-src', 'pdf') }

  before do
    FileUtils.mkdir_p(File.join(shared, 'sub'))
    File.write(File.join(shared, 'sub', 'table.csv'), "a,b\n")
    FileUtils.mkdir_p(skill)
    File.write(File.join(skill, 'SKILL.md'), "# PDF skill\n")
  end

  def read_mounts(runner)
    python(runner, <<~PY, files: [])
      import os
      print(open('data/sub/table.csv').read(), end='')
      print(open('skills/pdf/SKILL.md').read(), end='')
      try:
          open('data/sub/table.csv', 'w').write('changed')
      except OSError as e:
          print('read-only', e.errno)
    PY
  end

  { 'in place' => ->(tmp) { RubyLLM::NativeDir.new(File.join(tmp, 'work')) },
    'staged' => ->(_) { RubyLLM::FileStore::Memory.new } }.each do |way, make_store|
    context way do
      let(:store) { make_store.call(@tmp) }
      let(:runner) { runner_for(store, mounts: { 'data' => shared }, skills: [skill]) }

      it 'links mounts and skills in read-only for the run and takes them away after' do
        result = read_mounts(runner)
        expect(result.stdout).to eq("a,b\n# PDF skill\nread-only 30\n")
        expect(result.created + result.changed).to eq([])
        expect(result.shadowed_mounts).to eq([])
        expect(store.list).to eq([])
        expect(File.read(File.join(shared, 'sub', 'table.csv'))).to eq("a,b\n")
        next unless store.local_root

        expect(Dir.children(store.local_root)).to eq([])
      end

      it 'shows the folder its own file where a mount would go, and says so' do
        store.write('data/sub/table.csv', "own\n")
        result = python(runner, "print(open('data/sub/table.csv').read(), end='')", files: ['data'])
        expect(result.stdout).to eq("own\n")
        expect(result.shadowed_mounts).to eq(['data'])
        expect(result.notes.join).to include('has its own data')
        expect(store.read('data/sub/table.csv')).to eq("own\n")
      end
    end
  end

  it 'leaves a mountpoint folder the code wrote into' do
    store = RubyLLM::NativeDir.new(File.join(@tmp, 'work'))
    runner = runner_for(store, skills: { 'pdf' => skill })
    result = python(runner, "open('skills/notes.md', 'w').write('mine')")
    expect(result.created).to eq(['skills/notes.md'])
    expect(store.list.map(&:path)).to eq(['skills/notes.md'])
    expect(Dir.children(File.join(store.local_root, 'skills'))).to eq(['notes.md'])
  end

  it 'links them as symbolic links when run without a sandbox' do
    store = RubyLLM::FileStore::Memory.new
    runner = runner_for(store, sandbox: false, mounts: { 'data' => shared })
    result = python(runner, "print(open('data/sub/table.csv').read(), end='')\nopen('out.txt','w').write('o')")
    expect(result.stdout).to eq("a,b\n")
    expect(store.list.map(&:path)).to eq(['out.txt'])
  end

  it 'refuses a mount of a path that does not exist' do
    expect { runner_for(RubyLLM::FileStore::Memory.new, mounts: { 'x' => File.join(@tmp, 'none') }) }
      .to raise_error(ArgumentError, /does not exist/)
  end
end
