# frozen_string_literal: true

require 'timeout'

RSpec.describe RubyLLM::FileStore::Converters do
  # A converter that records what it was given and answers +text+.
  def recording(text, local: false, log: calls)
    Class.new do
      define_singleton_method(:call) do |file|
        log << [text, file.filename, file.mime_type, file.content]
        text
      end
      define_singleton_method(:local?) { local }
    end
  end

  let(:calls) { [] }
  let(:converters) { RubyLLM.config.file_converters }
  let(:store) { RubyLLM::FileStore::Memory.new }

  around do |example|
    saved = RubyLLM.config.file_converters.dup
    RubyLLM.config.file_converters.clear
    example.run
  ensure
    RubyLLM.config.file_converters = saved
  end

  describe 'the order converters are tried in' do
    it 'runs exact types before families, families before */*, and registered before built-in' do
      converters['*/*'] = recording('any')
      converters['image/*'] = recording('family')
      converters['image/png'] = recording('exact')
      chain = described_class.chain('image/png')
      expect(chain.map { |c| c.call(Struct.new(:filename, :mime_type, :content).new) }).to eq(%w[exact family any])

      docx = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document'
      expect(described_class.chain(docx).last).to be(RubyLLM::FileStore::Converters::Office)
      expect(described_class.chain(docx).first.call(Struct.new(:filename, :mime_type, :content).new)).to eq('any')
    end

    it 'tries an Array in order, passing on nil, and stops at the first text' do
      converters['application/pdf'] = [recording(nil), recording('second'), recording('third')]
      store.write('a.pdf', '%PDF-1.7 fake')
      expect(store.text('a.pdf')).to eq('second')
      expect(calls.map(&:first)).to eq([nil, 'second'])
    end

    it 'matches types without regard to case' do
      converters['Application/PDF'] = recording('found')
      store.write('a.pdf', '%PDF-1.7 fake')
      expect(store.text('a.pdf')).to eq('found')
    end

    it 'gives a converter the content, file name and type' do
      converters['application/pdf'] = recording('ok')
      store.write('docs/a.pdf', '%PDF-1.7 fake')
      store.text('docs/a.pdf')
      _, filename, mime_type, content = calls.first
      expect([filename, mime_type, content]).to eq(['a.pdf', 'application/pdf', '%PDF-1.7 fake'])
    end

    it 'raises ConversionError when no converter reads the format' do
      converters['application/pdf'] = recording(nil)
      store.write('a.pdf', '%PDF-1.7 fake')
      expect { store.text('a.pdf') }.to raise_error(RubyLLM::FileStore::ConversionError, /a\.pdf.*no converter/)
    end
  end

  describe 'local converters' do
    it 'runs only local converters, stopping at the first that is not local' do
      converters['application/pdf'] = [recording('paid'), recording('free', local: true)]
      store.write('a.pdf', '%PDF-1.7 fake')
      expect(store.convert_locally('a.pdf')).to be_nil
      expect(calls).to be_empty
      expect(described_class.local_for?('application/pdf')).to be(false)

      converters['application/pdf'] = [recording(nil, local: true), recording('free', local: true),
                                       recording('paid')]
      expect(store.convert_locally('a.pdf')).to eq('free')
      expect(described_class.local_for?('application/pdf')).to be(true)
    end

    it 'keeps what a local converter made, so a later text needs no conversion' do
      converters['application/pdf'] = recording('free', local: true)
      store.write('a.pdf', '%PDF-1.7 fake')
      store.convert_locally('a.pdf')
      expect(store.text('a.pdf')).to eq('free')
      expect(calls.size).to eq(1)
    end

    it 'leaves text files alone' do
      converters['text/*'] = recording('converted', local: true)
      store.write('notes.md', '# Notes')
      expect(store.convert_locally('notes.md')).to be_nil
      expect(store.text('notes.md')).to eq('# Notes')
      expect(calls).to be_empty
    end
  end

  describe 'caching by digest' do
    it 'converts each version of a file once' do
      converters['application/pdf'] = recording('text')
      store.write('a.pdf', '%PDF-1.7 one')
      2.times { store.text('a.pdf') }
      expect(calls.size).to eq(1)
      store.write('a.pdf', '%PDF-1.7 two')
      store.text('a.pdf')
      expect(calls.size).to eq(2)
      expect(calls.map(&:last)).to eq(['%PDF-1.7 one', '%PDF-1.7 two'])
    end

    it 'shares a conversion between two paths with the same bytes' do
      converters['application/pdf'] = recording('text')
      store.write('a.pdf', '%PDF-1.7 same')
      store.write('b.pdf', '%PDF-1.7 same')
      expect([store.text('a.pdf'), store.text('b.pdf')]).to eq(%w[text text])
      expect(calls.size).to eq(1)
    end
  end

  describe 'a converter that fails or answers something else than a String' do
    let(:read) { RubyLLM::FileStore::Tools.for(store).find { |t| t.name == 'read_file' } }

    def raising(error)
      Class.new { define_singleton_method(:call) { |_file| raise error } }
    end

    [NotImplementedError.new('no OCR here'), SystemStackError.new('stack level too deep'),
     NoMemoryError.new('failed to allocate memory'), Class.new(ScriptError).new('a load failed')].each do |error|
      it "answers { error: } from read_file and raises ConversionError from store.text for #{error.class}" do
        converters['application/pdf'] = raising(error)
        store.write('a.pdf', '%PDF-1.7 fake')
        expect(read.call('path' => 'a.pdf'))
          .to eq(error: "a.pdf could not be converted: #{error.class}: #{error.message}")
        expect { store.text('a.pdf') }
          .to raise_error(RubyLLM::FileStore::ConversionError, /a\.pdf could not be converted/)
      end
    end

    it 'answers { error: } when the text it returns has a to_s that is nil or not a String' do
      [Class.new { def to_s = nil }.new, Class.new { def to_s = 42 }.new].each do |odd|
        converters['application/pdf'] = recording(odd)
        store.write('a.pdf', "%PDF-1.7 #{odd.object_id}")
        expect(read.call('path' => 'a.pdf'))
          .to include(error: a_string_matching(/\Aa\.pdf could not be converted: TypeError: .*not a String/))
      end
    end

    it 'lets Interrupt and Timeout through, so they still stop the caller' do
      converters['application/pdf'] = raising(Interrupt.new)
      store.write('a.pdf', '%PDF-1.7 fake')
      expect { read.call('path' => 'a.pdf') }.to raise_error(Interrupt)
      converters['application/pdf'] = Class.new { define_singleton_method(:call) { |_f| sleep 5 } }
      expect { Timeout.timeout(0.2) { read.call('path' => 'a.pdf') } }.to raise_error(Timeout::Error)
    end
  end

  describe 'the converted text' do
    it 'drops C0 controls but tab and line feed, and reads CR LF and a lone CR as line feeds' do
      converters['application/pdf'] = recording("a\0b\tc\r\nd\re\x1F\x0Bf\n")
      store.write('a.pdf', '%PDF-1.7 fake')
      expect(store.text('a.pdf')).to eq("ab\tc\nd\nef\n")
    end

    it 'keeps a text with a NUL searchable' do
      converters['application/pdf'] = recording("Row\0 one\nRow two\n")
      store.write('a.pdf', '%PDF-1.7 fake')
      store.text('a.pdf')
      expect(RubyLLM::FileStore::Search.run(store, 'Row two')).to include('a.pdf:2:Row two')
    end
  end

  describe 'read_file and search_files' do
    it 'reads a converted file, and search finds its text afterwards without converting again' do
      converters['application/pdf'] = recording("Termination: 30 days notice\n")
      store.write('contract.pdf', '%PDF-1.7 contract')
      search = RubyLLM::FileStore::Search
      expect(search.run(store, 'Termination')).not_to include('30 days')

      read = RubyLLM::FileStore::Tools.for(store).find { |t| t.name == 'read_file' }
      expect(read.call('path' => 'contract.pdf')).to include('Termination: 30 days notice')
      expect(search.run(store, 'Termination')).to include('contract.pdf:1:Termination: 30 days notice')
      expect(calls.size).to eq(1)
    end
  end
end
