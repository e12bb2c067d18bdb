# frozen_string_literal: true

require 'pathname'

RSpec.describe RubyLLM::FileStore do
  describe '.path' do
    it 'normalises' do
      expect(described_class.path('./a//b')).to eq('a/b')
      expect(described_class.path('reports/q3.pdf')).to eq('reports/q3.pdf')
      expect(described_class.path(Pathname('notes/plan.md'))).to eq('notes/plan.md')
      expect(described_class.path('a/./b/')).to eq('a/b')
    end

    it 'returns UTF-8 for paths given in another encoding' do
      expect(described_class.path('café.md'.b).encoding).to eq(Encoding::UTF_8)
    end

    {
      'a/../b' => /contains \.\./, '..' => /contains \.\./, 'a/..' => /contains \.\./,
      '/etc/passwd' => /absolute/, '' => /names no file/, './' => /names no file/,
      "a\0b" => /NUL/, 'a\\b' => /backslash/, "a\nb" => /control character/,
      'x' * 256 => /longer than 255 bytes/
    }.each do |bad, reason|
      it "refuses #{bad.inspect[0, 30]} with ArgumentError naming the path and the reason" do
        expect { described_class.path(bad) }.to raise_error(ArgumentError) { |error|
          expect(error.message).to include('is not a valid file path').and match(reason)
        }
      end
    end

    it 'names the refused path in the message' do
      expect { described_class.path('notes/../../etc') }.to raise_error(ArgumentError, %r{\A"notes/\.\./\.\./etc"})
    end

    it 'refuses what is not a path' do
      expect { described_class.path(nil) }.to raise_error(ArgumentError, /must be a String/)
      expect { described_class.path(42) }.to raise_error(ArgumentError, /must be a String/)
      expect { described_class.path("\xFF".b) }.to raise_error(ArgumentError, /not UTF-8/)
    end
  end

  describe '.folder' do
    it 'takes the root as nil, "" or "."' do
      expect([nil, '', '.', './'].map { |f| described_class.folder(f) }).to eq(['', '', '', ''])
      expect(described_class.folder('reports/')).to eq('reports')
      expect { described_class.folder('../x') }.to raise_error(ArgumentError)
    end
  end

  describe 'errors' do
    it 'are StandardErrors under RubyLLM' do
      [RubyLLM::FileNotFoundError, RubyLLM::FileStoreFullError, RubyLLM::ConfigurationError,
       RubyLLM::FileStore::InternalError, RubyLLM::FileStore::ConversionError].each do |error|
        expect(error.ancestors).to include(StandardError)
      end
    end
  end
end
