# frozen_string_literal: true

RSpec.describe RubyLLM::FileStores::Native::ConverterSettings do
  it 'gives RubyLLM.configure a file_converters Hash' do
    expect(RubyLLM.config.file_converters).to be_a(Hash)
    yielded = nil
    RubyLLM.configure { |config| yielded = config }
    expect(yielded).to be(RubyLLM.config)
  end

  it 'gives each configuration a Hash of its own, copies included' do
    klass = Class.new { include RubyLLM::FileStores::Native::ConverterSettings }
    one = klass.new
    two = klass.new
    one.file_converters['a/b'] = :x
    expect(two.file_converters).to eq({})
    copy = one.dup
    copy.file_converters['c/d'] = :y
    expect(one.file_converters.keys).to eq(['a/b'])
  end

  it 'refuses what is not a Hash' do
    expect { RubyLLM::FileStores::Native::Configuration.new.file_converters = [] }
      .to raise_error(ArgumentError, /must be a Hash/)
  end
end
