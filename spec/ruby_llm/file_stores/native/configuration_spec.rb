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

  it 'lets ruby_llm required later build its own config, keeping the converters registered before' do
    script = <<~RUBY
      $LOAD_PATH.unshift(#{File.expand_path('../../../../lib', __dir__).inspect})
      require 'ruby_llm/file_stores/native'
      RubyLLM.configure { |config| config.file_converters['text/x-early'] = :early }
      # What requiring ruby_llm does to RubyLLM.config (lib/ruby_llm.rb).
      module RubyLLM
        class Configuration
          attr_accessor :openai_api_key
        end

        class << self
          def config = (@config ||= Configuration.new)
          def configure = yield(config)
        end
      end
      RubyLLM::FileStores::Native.install_configuration!
      RubyLLM.configure { |config| config.openai_api_key = 'key' }
      p [RubyLLM.config.class.name, RubyLLM.config.openai_api_key, RubyLLM.config.file_converters]
    RUBY
    output = IO.popen([RbConfig.ruby, '-e', script], err: %i[child out], &:read)
    expect(output).to eq(%(["RubyLLM::Configuration", "key", {"text/x-early"=>:early}]\n))
  end

  it 'refuses what is not a Hash' do
    expect { RubyLLM::FileStores::Native::Configuration.new.file_converters = [] }
      .to raise_error(ArgumentError, /must be a Hash/)
  end
end
