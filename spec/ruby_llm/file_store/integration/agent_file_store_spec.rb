# frozen_string_literal: true

RSpec.describe RubyLLM::FileStore::Integration::AgentFileStore do
  include_context 'in a temporary folder'

  # A chat that records what with_file_store was given.
  let(:chat_class) do
    Class.new do
      attr_reader :calls

      def with_file_store(store, **options)
        (@calls ||= []) << [store, options]
        self
      end
    end
  end

  def runtime(**inputs)
    Object.new.tap { |r| inputs.each { |name, value| r.define_singleton_method(name) { value } } }
  end

  it 'gives each chat the default store when declared bare, with the options' do
    chat = chat_class.new
    described_class.declare(inline_limit: 20_000, tools: :read).apply(chat, runtime)
    default = RubyLLM::FileStore::ChatFiles::Setup::DEFAULT
    expect(chat.calls).to eq([[default, { inline_limit: 20_000, tools: :read }]])
  end

  it 'runs a lambda once per chat with the inputs in scope, and an owner lambda likewise' do
    user = Struct.new(:id).new(5)
    declaration = described_class.declare(-> { "#{root}/#{project}" }, owner: -> { current_user })
    chats = %w[alpha beta].map do |project|
      chat_class.new.tap { |c| declaration.apply(c, runtime(root: @tmp, project:, current_user: user)) }
    end
    expect(chats.map(&:calls)).to eq([[["#{@tmp}/alpha", { owner: user }]], [["#{@tmp}/beta", { owner: user }]]])
  end

  it 'passes a folder path, :memory and a store on as declared' do
    store = RubyLLM::FileStore::Memory.new
    [@tmp, :memory, store].each do |arg|
      chat = chat_class.new
      described_class.declare(arg).apply(chat, runtime)
      expect(chat.calls.first.first).to equal(arg)
    end
  end

  it 'removes the store with nil (one a chat loaded again got from its files too), which takes no options' do
    chat = chat_class.new
    removed = described_class.declare(nil)
    removed.apply(chat, runtime)
    expect([removed.removed?, chat.calls]).to eq([true, [[nil, {}]]])
    expect { described_class.declare(nil, tools: :read) }.to raise_error(ArgumentError, /takes no options/)
  end

  it 'refuses what with_file_store would refuse, when it is declared' do
    expect { described_class.declare(:disk) }.to raise_error(ArgumentError, /folder path, :memory/)
    expect { described_class.declare('a', 'b') }.to raise_error(ArgumentError, /one store at most/)
    expect { described_class.declare(limit: 5) }.to raise_error(ArgumentError, /no option limit/)
    expect { described_class.declare(inline_limit: 5) }.to raise_error(ArgumentError, /inline_limit/)
    expect { described_class.declare(owner: 'dana') }.to raise_error(ArgumentError, /object with an id/)
  end
end
