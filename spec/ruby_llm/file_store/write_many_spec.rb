# frozen_string_literal: true

require 'stringio'

# write_many's default, one file at a time (Memory, and any store that does
# not override it): what the block gives is written and an IO closed after,
# a file the store refuses is named unsaved, and nothing is started after
# the deadline.
RSpec.describe RubyLLM::FileStore::Memory, '#write_many' do
  let(:store) { described_class.new }

  it 'writes what the block gives, closing IOs, and names what the store refused' do
    ios = []
    saved, unsaved, error = store.write_many(%w[a.md ../b.md c.md]) do |path|
      StringIO.new("#{path}\n").tap { |io| ios << io }
    end
    expect(saved.map(&:path)).to eq(%w[a.md c.md])
    expect(unsaved).to eq(%w[../b.md])
    expect(error).to include('..')
    expect(ios).to all(be_closed)
    expect(store.read('c.md')).to eq("c.md\n")
  end

  it 'starts no file after the deadline and names the rest with the reason' do
    saved, unsaved, error = store.write_many(%w[a.md b.md], deadline: 0) { |path| path }
    expect([saved, unsaved]).to eq([[], %w[a.md b.md]])
    expect(error).to include('time limit ran out')
    expect(store.list).to eq([])
  end

  it 'forgets the reads of many paths at once' do
    store.write('a.md', 'a')
    store.record_read('a.md', 'digest')
    store.forget_reads(%w[a.md missing.md])
    expect(store.read_digest('a.md')).to be_nil
  end
end
