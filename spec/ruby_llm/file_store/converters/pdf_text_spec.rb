# frozen_string_literal: true

require 'timeout'
require_relative 'pdf_fixtures'

# The PDF text-layer converter, alone and through stores and tools: its
# answers, errors, Timeout and the stores' use of it. What the engine reads
# from crafted files (words, fonts, scans, damaged and encrypted files,
# limits) is tested beside its code in ext/file_stores_pdf (the crafted.rs
# modules, load/tests.rs).
RSpec.describe RubyLLM::FileStore::Converters::PdfText do
  include PdfFixtures

  def convert(bytes, name = 'doc.pdf')
    described_class.call(RubyLLM::FileStore::Converters::Input.new(content: bytes, filename: name,
                                                                   mime_type: 'application/pdf', path: name))
  end

  it 'gives every page after a ## Page N heading, words and lines as placed' do
    expect(convert(make_pdf("This agreement is made\nbetween the parties.", 'Signed on the second page.')))
      .to eq("## Page 1\n\nThis agreement is made\nbetween the parties.\n\n## Page 2\n\nSigned on the second page.\n")
  end

  it 'is local' do
    expect(described_class.local?).to be(true)
  end

  it 'raises ConversionError saying a PDF is encrypted when it needs a password' do
    expect { convert(pdf_fixture('encrypted_password.pdf'), 'secret.pdf') }
      .to raise_error(RubyLLM::FileStore::ConversionError, /secret\.pdf.*encrypted with a password/)
  end

  it 'raises ConversionError saying what was wrong with a broken PDF' do
    expect { convert("%PDF-1.7\nnothing else", 'broken.pdf') }
      .to raise_error(RubyLLM::FileStore::ConversionError, /broken\.pdf.*broken/)
    expect { convert('not a pdf at all', 'plain.pdf') }
      .to raise_error(RubyLLM::FileStore::ConversionError, /plain\.pdf.*not a PDF/)
  end

  it 'stops at a Timeout on a long PDF' do
    page = (['word ' * 12] * 4000).join("\n")
    bytes = make_pdf(*([page] * 40))
    started = Process.clock_gettime(Process::CLOCK_MONOTONIC)
    expect { Timeout.timeout(0.2) { convert(bytes) } }.to raise_error(Timeout::Error)
    expect(Process.clock_gettime(Process::CLOCK_MONOTONIC) - started).to be < 2
  end

  context 'in stores' do
    around do |example|
      saved = RubyLLM.config.file_converters.dup
      example.run
    ensure
      RubyLLM.config.file_converters = saved
    end

    {
      'a Memory store' => ->(_dir) { RubyLLM::FileStore::Memory.new },
      'a NativeDir' => ->(dir) { RubyLLM::NativeDir.new(File.join(dir, 'store')) }
    }.each do |label, make|
      context "on #{label}" do
        include_context 'in a temporary folder'

        let(:store) { make.call(@tmp) }
        let(:tools) { RubyLLM::FileStore::Tools.for(store).to_h { |tool| [tool.name, tool] } }

        def call_tool(name, **args) = tools.fetch(name).call(args.transform_keys(&:to_s))

        before { store.write('docs/contract.pdf', make_pdf("Termination clause\nninety days notice.")) }

        it 'hands the PDF itself to read_file when no converter is registered' do
          RubyLLM.config.file_converters.delete('application/pdf')
          expect(call_tool('read_file', path: 'docs/contract.pdf').content_type).to eq('application/pdf')
        end

        context 'with PdfText registered' do
          before { RubyLLM.config.file_converters['application/pdf'] = [described_class] }

          it 'reads with store.text and read_file' do
            expect(store.text('docs/contract.pdf')).to eq("## Page 1\n\nTermination clause\nninety days notice.\n")
            expect(call_tool('read_file', path: 'docs/contract.pdf')).to include('ninety days notice.')
          end

          # A chat converts a file it keeps with the local converters (convert_locally).
          it 'runs as a local converter, so search_files finds the words without a read_file first' do
            expect(store.convert_locally('docs/contract.pdf')).to include('ninety days notice.')
            expect(call_tool('search_files', pattern: 'ninety')).to eq("docs/contract.pdf:4:ninety days notice.\n")
          end

          it 'answers read_file on a broken PDF with an error naming it' do
            store.write('docs/broken.pdf', "%PDF-1.7\ngarbage")
            expect(call_tool('read_file', path: 'docs/broken.pdf')).to match(error: /broken\.pdf.*broken/)
          end

          it 'falls through to the next converter for a scan' do
            ocr = Module.new do
              def self.call(_file) = 'OCR text'
            end
            RubyLLM.config.file_converters['application/pdf'] = [described_class, ocr]
            store.write('docs/scan.pdf', make_pdf(nil))
            expect(store.text('docs/scan.pdf')).to eq('OCR text')
          end
        end
      end
    end
  end
end
