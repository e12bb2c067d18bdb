# frozen_string_literal: true

require_relative 'code_execution_helper'

RSpec.describe RubyLLM::FileStore::CodeExecution, 'with a store that keeps history' do
  include_context 'with code execution'

  let(:runner) { runner_for(store) }

  context 'when run in place on a NativeDir' do
    let(:store) { RubyLLM::NativeDir.new(File.join(@tmp, 'work'), history: File.join(@tmp, 'history')) }

    it 'keeps the version each file had before the run, and records what the run did as :code' do
      store.write('notes.md', "old\n")
      File.write(File.join(@tmp, 'work', 'written-on-disk.md'), "before history\n")
      store.write('gone.txt', "bye\n")
      checkpoint = store.checkpoint
      result = python(runner, <<~PY)
        import os
        with open('notes.md', 'a') as f: f.write('new\\n')
        with open('written-on-disk.md', 'w') as f: f.write('changed by code\\n')
        open('made.csv', 'w').write('a\\n')
        os.remove('gone.txt')
      PY
      expect(result.exit_status).to eq(0)
      expect(store.versions('notes.md').map { |version| [version.change, version.by] })
        .to eq([%i[changed code], %i[created app]])
      expect(store.versions('made.csv').map(&:by)).to eq([:code])
      expect(store.versions('gone.txt').first).to have_attributes(change: :deleted, by: :code)
      expect(store.read_version(store.versions('written-on-disk.md').last)).to eq("before history\n")
      store.rewind(checkpoint)
      expect(store.list.to_h { |file| [file.path, store.read(file.path)] })
        .to eq('gone.txt' => "bye\n", 'notes.md' => "old\n", 'written-on-disk.md' => "before history\n")
    end
  end

  context 'when staged from a Memory store' do
    let(:store) { RubyLLM::FileStore::Memory.new(history: true) }

    it "records the run's copy-back as :code" do
      store.write('notes.md', "old\n")
      python(runner, "open('notes.md', 'a').write('new\\n')\nopen('out.txt', 'w').write('x')", files: ['notes.md'])
      expect(store.versions('notes.md').map(&:by)).to eq(%i[code app])
      expect(store.versions('out.txt').map(&:change)).to eq([:created])
    end
  end

  context 'when run over a tree, its folders in place' do
    let(:notes) { RubyLLM::NativeDir.new(File.join(@tmp, 'notes'), history: File.join(@tmp, 'notes-history')) }
    let(:work) { RubyLLM::NativeDir.new(File.join(@tmp, 'work'), history: File.join(@tmp, 'history')) }
    let(:store) { RubyLLM::FileStore::Mounts.new(work, 'notes' => notes) }

    it "keeps in each folder's history the version before the run, and records what the run did as :code" do
      store.write('plan.md', "old\n")
      store.write('notes/a.md', "old\n")
      python(runner, "open('plan.md', 'a').write('new\\n')\nopen('notes/a.md', 'a').write('new\\n')")
      expect([work.versions('plan.md'), notes.versions('a.md')].map { |versions| versions.map(&:by) })
        .to eq([%i[code app], %i[code app]])
      expect(notes.read_version(notes.versions('a.md').last)).to eq("old\n")
    end
  end
end
