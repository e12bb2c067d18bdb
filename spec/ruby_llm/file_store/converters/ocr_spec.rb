# frozen_string_literal: true

RSpec.describe RubyLLM::FileStore::Converters::OCR do
  let(:file) { Struct.new(:content, :filename, :mime_type).new('%PDF', 'scan.pdf', 'application/pdf') }

  it 'is not local, since each file costs a request' do
    expect(described_class.new.local?).to be(false)
  end

  context 'when RubyLLM has no ocr' do
    it 'raises ConfigurationError saying why' do
      skip 'RubyLLM.ocr is defined here' if RubyLLM.respond_to?(:ocr)
      expect { described_class.new.call(file) }
        .to raise_error(RubyLLM::ConfigurationError, /needs RubyLLM\.ocr/)
    end
  end

  context 'with a RubyLLM.ocr' do
    let(:calls) { [] }

    before do
      log = calls
      result = Struct.new(:markdown).new("# Scan\n\n| a | b |")
      RubyLLM.define_singleton_method(:ocr) do |given, **options|
        log << [given, options]
        result
      end
    end

    after { RubyLLM.singleton_class.send(:remove_method, :ocr) }

    it 'passes the file and its options to RubyLLM.ocr and returns the markdown' do
      text = described_class.new(model: 'mistral-ocr-latest', provider: :mistral).call(file)
      expect(text).to eq("# Scan\n\n| a | b |")
      expect(calls).to eq([[file, { model: 'mistral-ocr-latest', provider: :mistral }]])
    end
  end
end
