# frozen_string_literal: true

RSpec.describe RubyLLM::FileStores::Native::TextCache do
  it 'keeps the most recently used texts within its size' do
    cache = described_class.new(max_bytes: 10)
    cache['a'] = 'aaaa'
    cache['b'] = 'bbbb'
    expect(cache['a']).to eq('aaaa') # a is now the most recent
    cache['c'] = 'cccc'              # b goes
    expect(cache['b']).to be_nil
    expect([cache['a'], cache['c']]).to eq(%w[aaaa cccc])
  end

  it 'does not keep a text larger than the whole cache' do
    cache = described_class.new(max_bytes: 3)
    cache['a'] = 'abcd'
    expect(cache['a']).to be_nil
    expect(cache.size).to eq(0)
  end
end
