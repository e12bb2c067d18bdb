# frozen_string_literal: true

require_relative 'pdf_fixtures'

# Every built-in converter takes one form: a class whose instances convert,
# and which converts as a new instance would, so a registration may name the
# class (the old form) or an instance (as OCR.new(model: ...) always was).
RSpec.describe 'the built-in converters' do
  include PdfFixtures

  converters = RubyLLM::FileStore::Converters

  def input(bytes, name, type)
    RubyLLM::FileStore::Converters::Input.new(content: bytes, filename: name, mime_type: type, path: name)
  end

  let(:pdf) { input(make_pdf('The agreement is made between the parties.'), 'a.pdf', 'application/pdf') }
  let(:docx) do
    input(File.binread(File.expand_path('../../../fixtures/office/basic.docx', __dir__)), 'basic.docx',
          'application/vnd.openxmlformats-officedocument.wordprocessingml.document')
  end
  let(:srt) { input("1\n00:00:01,000 --> 00:00:02,000\nHello\n", 'a.srt', 'application/x-subrip') }

  it 'reads a PDF as PdfText and as PdfText.new' do
    expect(converters::PdfText.new.call(pdf)).to eq(converters::PdfText.call(pdf))
    expect(converters::PdfText.new.call(pdf)).to include('The agreement is made')
  end

  it 'reads Office files as Office and as Office.new, and text as Text and as Text.new' do
    expect(converters::Office.new.call(docx)).to eq(converters::Office.call(docx))
    expect(converters::Office.new.call(docx)).not_to be_empty
    expect(converters::Text.new.call(srt)).to eq(converters::Text.call(srt))
    expect(converters::Text.new.call(srt)).to include('Hello')
  end

  it 'says local? the same way in both forms, OCR included' do
    [converters::PdfText, converters::Office, converters::Text].each do |klass|
      expect([klass.local?, klass.new.local?]).to eq([true, true])
    end
    expect([converters::OCR.local?, converters::OCR.new.local?]).to eq([false, false])
  end

  it 'runs an instance registered for a type, before OCR, through a store' do
    saved = RubyLLM.config.file_converters.dup
    ocr = Class.new { def call(_file) = 'OCR text' }.new
    RubyLLM.config.file_converters['application/pdf'] = [converters::PdfText.new, ocr]
    store = RubyLLM::FileStore::Memory.new
    store.write('a.pdf', pdf.content)
    expect(store.text('a.pdf')).to include('The agreement is made')
    expect(converters.local_for?('application/pdf')).to be(true)
  ensure
    RubyLLM.config.file_converters = saved
  end
end

# A key that no file would match is refused when it is set (ConverterRegistry).
RSpec.describe 'the keys of config.file_converters' do
  let(:config) { RubyLLM::FileStores::Native::Configuration.new }

  it 'takes content types, families and */*, as Strings or Symbols' do
    config.file_converters['application/pdf'] = :a
    config.file_converters['image/*'] = :b
    config.file_converters['*/*'] = :c
    config.file_converters[:'application/x-subrip'] = :d
    config.file_converters['application/vnd.ms-excel.sheet.macroEnabled.12'] = :e
    expect(config.file_converters.size).to eq(5)
  end

  it "refuses 'pdf', saying to write 'application/pdf'" do
    expect { config.file_converters['pdf'] = :x }
      .to raise_error(ArgumentError, %r{"pdf" is not a content type.*file_converters\['application/pdf'\]})
    expect { config.file_converters['.docx'] = :x }
      .to raise_error(ArgumentError, /wordprocessingml/)
    expect(config.file_converters).to be_empty
  end

  it 'refuses other keys that no file would match, in every way a Hash is filled' do
    ['image', 'image/', '/pdf', 'application/pdf ', '', :pdf, nil, 42].each do |key|
      expect { config.file_converters[key] = :x }.to raise_error(ArgumentError, /is not a content type/), key.inspect
    end
    expect { config.file_converters.store('pdf', :x) }.to raise_error(ArgumentError, /not a content type/)
    expect { config.file_converters.merge!('text/plain' => :ok, 'txt' => :x) }.to raise_error(ArgumentError)
    expect { config.file_converters = { 'pdf' => :x } }.to raise_error(ArgumentError, /not a content type/)
    expect(config.file_converters).to be_empty
  end

  it 'are checked in copies and after a Hash is given' do
    config.file_converters = { 'text/plain' => :x }
    expect { config.file_converters['pdf'] = :x }.to raise_error(ArgumentError, /not a content type/)
    expect { config.dup.file_converters['pdf'] = :x }.to raise_error(ArgumentError, /not a content type/)
    expect(config.file_converters.dup.merge('image/*' => :y).keys).to eq(['text/plain', 'image/*'])
  end
end
