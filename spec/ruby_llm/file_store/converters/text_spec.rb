# frozen_string_literal: true

RSpec.describe RubyLLM::FileStore::Converters::Text do
  def file(content)
    Struct.new(:content, :filename, :mime_type).new(content, 'a.srt', 'application/x-subrip')
  end

  it 'reads a file as it is' do
    expect(described_class.call(file("1\n00:00:01 --> 00:00:02\nHello\n"))).to eq("1\n00:00:01 --> 00:00:02\nHello\n")
  end

  it 'replaces invalid UTF-8 and transcodes UTF-16 with a byte-order mark' do
    expect(described_class.call(file("caf\xE9".b))).to eq("caf\uFFFD")
    expect(described_class.call(file("\xFF\xFEh\x00i\x00".b))).to eq('hi')
  end

  it 'is local' do
    expect(described_class.local?).to be(true)
  end
end
