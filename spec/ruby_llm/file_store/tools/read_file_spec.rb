# frozen_string_literal: true

RSpec.describe RubyLLM::FileStore::Tools::ReadFile do
  on_every_store do
    it 'reads a text file as it is' do
      store.write('notes/plan.md', "# Plan\n\n1. Read\n")
      expect(call_tool('read_file', path: 'notes/plan.md')).to eq("# Plan\n\n1. Read\n")
    end

    it 'reads a part by lines with offset and limit, and says how to read on' do
      store.write('log.txt', (1..10).map { |i| "line #{i}\n" }.join)
      expect(call_tool('read_file', path: 'log.txt', offset: 3, limit: 2))
        .to eq("line 3\nline 4\n[Lines 3-4 of 10 in log.txt. Read on with offset: 5.]")
      expect(call_tool('read_file', path: 'log.txt',
                                    offset: 9)).to eq("line 9\nline 10\n[Lines 9-10 of 10 in log.txt.]")
    end

    it 'refuses an offset past the end, and bad numbers' do
      store.write('log.txt', "a\nb\n")
      expect(call_tool('read_file', path: 'log.txt',
                                    offset: 5)).to eq(error: 'offset 5 is past the end: log.txt has 2 lines.')
      expect(call_tool('read_file', path: 'log.txt', offset: 0)).to match(error: /offset must be a whole number/)
      expect(call_tool('read_file', path: 'log.txt', limit: 'lots')).to match(error: /limit must be a whole number/)
    end

    it 'says a missing file does not exist' do
      expect(call_tool('read_file', path: 'missing.md')).to eq(error: 'missing.md does not exist')
    end

    it 'records the digest of the whole file, even for a part' do
      store.write('log.txt', "a\nb\nc\n")
      call_tool('read_file', path: 'log.txt', limit: 1)
      expect(store.read_digest('log.txt')).to eq(Digest::SHA256.hexdigest("a\nb\nc\n"))
    end

    it 'gives an image back as the file itself' do
      png = "\x89PNG\r\n\x1A\n#{'x' * 20}".b
      store.write('chart.png', png)
      result = call_tool('read_file', path: 'chart.png')
      expect(result).to have_attributes(filename: 'chart.png', content_type: 'image/png', content: png)
    end

    it 'gives a PDF no converter reads back as the file itself' do
      store.write('contract.pdf', "%PDF-1.7\n")
      expect(call_tool('read_file', path: 'contract.pdf').content_type).to eq('application/pdf')
    end

    it 'says any other binary has no text to read' do
      store.write('data.bin', "\x00\x01\x02".b)
      expect(call_tool('read_file', path: 'data.bin'))
        .to eq('data.bin (application/octet-stream, 3 bytes) has no text to read.')
    end

    it 'reads the text the store keeps for another format' do
      file = store.write('deck.pptx', "PK\x03\x04 fake".b)
      store.cache_text(file, "## Slide 1\n\nHello\n")
      expect(call_tool('read_file', path: 'deck.pptx')).to eq("## Slide 1\n\nHello\n")
    end

    it 'reads invalid UTF-8 with replacement characters and UTF-16 transcoded' do
      store.write('bad.txt', "ok \xFF\n".b)
      store.write('wide.txt', "\xFF\xFE".b + "hi\n".encode('UTF-16LE').b)
      expect(call_tool('read_file', path: 'bad.txt')).to eq("ok \uFFFD\n")
      expect(call_tool('read_file', path: 'wide.txt')).to eq("hi\n")
    end

    it 'reads UTF-32 with a byte-order mark as UTF-32, not as UTF-16' do
      store.write('le.txt', "\xFF\xFE\x00\x00".b + "hi \u{1F600}\n".encode('UTF-32LE').b)
      store.write('be.txt', "\x00\x00\xFE\xFF".b + "hi\n".encode('UTF-32BE').b)
      expect(call_tool('read_file', path: 'le.txt')).to eq("hi \u{1F600}\n")
      expect(call_tool('read_file', path: 'be.txt')).to eq("hi\n")
      expect(store.text('le.txt')).to eq("hi \u{1F600}\n")
    end

    context 'with a long file' do
      let(:inline_limit) { 2_000 }

      it 'never returns more than the inline limit, and says how to read on' do
        store.write('long.txt', (1..500).map { |i| "line number #{i}\n" }.join)
        first = call_tool('read_file', path: 'long.txt')
        expect(first.size).to be <= 2_000
        next_line = first[/Read on with offset: (\d+)/, 1].to_i
        expect(first).to start_with("line number 1\n").and include("[Lines 1-#{next_line - 1} of 500 in long.txt.")
        expect(call_tool('read_file', path: 'long.txt', offset: next_line)).to start_with("line number #{next_line}\n")
      end

      it 'cuts a single line longer than the limit, and says so' do
        store.write('one-line.json', "[#{'1,' * 5000}1]")
        result = call_tool('read_file', path: 'one-line.json')
        expect(result.size).to be <= 2_000
        expect(result).to include('is longer than this result can hold')
      end
    end
  end
end
