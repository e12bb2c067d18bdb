# frozen_string_literal: true

require 'fileutils'

RSpec.describe RubyLLM::FileStore::CodeExecution::Snapshot do
  include_context 'in a temporary folder'

  let(:budget) { { entries: 100, bytes: 1024 * 1024 } }

  def sweep(snapshot, skip: []) = snapshot.sweep(skip:, **budget)

  it 'tells created, changed and deleted store files from hidden files and links' do
    File.write(File.join(@tmp, 'same.txt'), 'same')
    File.write(File.join(@tmp, 'changed.txt'), 'one')
    File.write(File.join(@tmp, 'gone.txt'), 'gone')
    snapshot = described_class.take(@tmp)
    File.write(File.join(@tmp, 'changed.txt'), 'two!')
    File.delete(File.join(@tmp, 'gone.txt'))
    FileUtils.mkdir_p(File.join(@tmp, 'out', '.cache'))
    File.write(File.join(@tmp, 'out', 'new.csv'), 'a,b')
    File.write(File.join(@tmp, 'out', '.cache', 'c.bin'), 'ccc')
    File.symlink('/etc/passwd', File.join(@tmp, 'link'))
    swept = sweep(snapshot)
    expect(swept.to_h).to include(created: ['out/new.csv'], changed: ['changed.txt'], deleted: ['gone.txt'],
                                  links: ['link'], hidden: [['out/.cache/c.bin', 3]], removed: [],
                                  sizes: { 'out/new.csv' => 3, 'changed.txt' => 4 })
    expect(swept.hidden_bytes).to eq(3)
  end

  it 'leaves the mount points it is told to skip' do
    snapshot = described_class.take(@tmp)
    FileUtils.mkdir_p(File.join(@tmp, 'skills', 'tool'))
    File.write(File.join(@tmp, 'skills', 'tool', 'x.txt'), 'x')
    expect(sweep(snapshot, skip: ['skills/tool']).created).to eq([])
  end

  it 'removes, past the budget, what it finds in walk order, and says why' do
    snapshot = described_class.take(@tmp)
    %w[a b c].each { |name| File.write(File.join(@tmp, "#{name}.bin"), 'x' * 400_000) }
    swept = sweep(snapshot)
    expect(swept.created).to eq(%w[a.bin b.bin])
    expect(swept.removed).to eq([['c.bin', :budget]])
    expect(File.exist?(File.join(@tmp, 'c.bin'))).to be(false)
  end
end
