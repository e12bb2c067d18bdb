# frozen_string_literal: true

RSpec.describe RubyLLM::FileStore::ChatFiles::Setup do
  include_context 'in a temporary folder'

  let(:default_store) { RubyLLM::FileStore::Memory.new }

  def build(store = described_class::DEFAULT, **options)
    described_class.build(store, default: -> { default_store }, **options)
  end

  it 'gives the default store when called bare, and the read, write and edit tools' do
    setup = build
    expect(setup.store).to equal(default_store)
    expect(setup.tools.map(&:name)).to eq(%w[list_files read_file search_files write_file edit_file])
    expect(setup.inline_limit).to eq(10_000)
  end

  it 'makes a NativeDir for a folder path, and a new Memory store for :memory' do
    folder = File.join(@tmp, 'chats/42')
    expect(build(folder).store).to be_a(RubyLLM::NativeDir).and(have_attributes(local_root: folder))
    expect(build(Pathname(folder)).store.local_root).to eq(folder)
    memory = build(:memory).store
    expect(memory).to be_a(RubyLLM::FileStore::Memory)
    expect(memory).not_to equal(build(:memory).store)
  end

  it "refuses the String 'memory' (from YAML or ENV), naming :memory, and makes no folder; a Pathname is a folder" do
    Dir.chdir(@tmp) do
      ['memory', ' Memory ', ':memory'].each do |value|
        expect { build(value) }.to raise_error(ArgumentError, %r{pass the Symbol :memory .* pass '\./memory'})
        expect { build(:memory, mounts: { 'scratch' => value }) }.to raise_error(ArgumentError, /Symbol :memory/)
      end
      expect(Dir.children(@tmp)).to eq([])
      expect(build(Pathname('memory')).store.local_root).to eq(File.join(File.realpath(@tmp), 'memory'))
      expect(build('./memory').store).to be_a(RubyLLM::NativeDir)
    end
  end

  it 'takes a store as it is, and gives its tools that store' do
    store = RubyLLM::FileStore::Memory.new
    setup = build(store, tools: :read, inline_limit: 20_000)
    expect(setup.store).to equal(store)
    expect(setup.tools.map { |tool| [tool.name, tool.store.equal?(store), tool.inline_limit] })
      .to eq([['list_files', true, 20_000], ['read_file', true, 20_000], ['search_files', true, 20_000]])
  end

  it 'gives the store for an owner' do
    user = Struct.new(:id).new(1)
    store = build(owner: user).store
    expect(store.owner).to eq(user)
    expect { build(@tmp, owner: user) }.to raise_error(ArgumentError, /cannot keep files for an owner/)
  end

  it 'refuses what is not a store, tools without :read, and bad limits' do
    expect { build(:disk) }.to raise_error(ArgumentError, /a folder path, :memory, a RubyLLM::FileStore/)
    expect { build(42) }.to raise_error(ArgumentError, /not 42/)
    expect { build(tools: %i[write]) }.to raise_error(ArgumentError, /must include :read/)
    expect { build(inline_limit: 10) }.to raise_error(ArgumentError, /inline_limit/)
    expect { build(inline_limit: nil) }.to raise_error(ArgumentError, /inline_limit/)
  end

  it 'sends every result whole with inline_limit: false' do
    expect(build(inline_limit: false).inline_limit).to be(false)
  end
end
