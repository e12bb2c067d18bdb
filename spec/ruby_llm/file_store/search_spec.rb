# frozen_string_literal: true

require 'rbconfig'
require 'timeout'

RSpec.describe RubyLLM::FileStore::Search, :native do
  def run(store, pattern, **options) = described_class.run(store, pattern, **options)

  on_every_store do
    it 'refuses patterns it cannot use, saying what to write instead' do
      {
        'a(?=b)' => /Look-ahead and look-behind/, '(a)\1' => /Back-references/, '\h+' => /\[0-9a-fA-F\]/,
        '[unclosed' => /Escape special characters/, 'x{1000}{1000}{1000}' => /too large/
      }.each do |pattern, advice|
        expect { run(store, pattern) }.to raise_error(ArgumentError, advice), pattern
      end
      expect(run(store, '(?<word>x)')).to eq("No matches.\n")
    end

    it 'returns at once on a pattern built to be slow' do
      store.write('long.txt', "#{'a' * 200_000}!\n")
      started = Process.clock_gettime(Process::CLOCK_MONOTONIC)
      expect(run(store, '(a+)+$')).to eq("No matches.\n")
      expect(run(store, '(a|aa)+!')).to start_with('long.txt:1:')
      expect(Process.clock_gettime(Process::CLOCK_MONOTONIC) - started).to be < 5
    end

    it 'searches UTF-16 with a BOM, and invalid UTF-8 lossily' do
      store.write('wide.txt', "\xFF\xFE".b + "caf\u00E9 menu\n".encode('UTF-16LE').b)
      store.write('broken.txt', "menu \xFF\xFE ok\n".b)
      expect(run(store, 'MENU')).to eq("broken.txt:1:menu \uFFFD\uFFFD ok\nwide.txt:1:café menu\n")
    end

    it 'uses Unicode simple case folding' do
      store.write('fr.txt', "L'école\n")
      expect(run(store, 'ÉCOLE')).to eq("fr.txt:1:L'école\n")
      expect(run(store, 'ÉCOLE', case_sensitive: true)).to eq("No matches.\n")
    end

    it 'narrows with path and glob, and says when the folder is missing' do
      store.write('reports/2025/q4.csv', "total\n")
      store.write('reports/q3.tsv', "total\n")
      store.write('other/q3.csv', "total\n")
      expect(run(store, 'total', glob: '*.csv')).to eq("other/q3.csv:1:total\nreports/2025/q4.csv:1:total\n")
      expect(run(store, 'total', path: 'reports', glob: '**/*.{csv,tsv}'))
        .to eq("reports/2025/q4.csv:1:total\nreports/q3.tsv:1:total\n")
      expect(run(store, 'total', path: 'reports', glob: '*.tsv')).to eq("reports/q3.tsv:1:total\n")
      expect { run(store, 'total', path: 'nowhere') }.to raise_error(RubyLLM::FileNotFoundError)
      expect { run(store, 'total', path: '../up') }.to raise_error(ArgumentError, /contains \.\./)
      expect { run(store, 'total', glob: '{a,b') }.to raise_error(ArgumentError, /not a valid glob/)
    end

    it 'searches the text a store keeps for a format with none of its own, and skips the rest' do
      store.write('deck.pptx', "PK\x03\x04".b)
      store.write('scan.pdf', "%PDF-1.7\n")
      store.cache_text(store.find('deck.pptx'), "Quarterly plan\n")
      expect(run(store, 'plan'))
        .to eq("deck.pptx:1:Quarterly plan\nSkipped 1 file with no extracted text: scan.pdf. " \
               "Read them with read_file first.\n")
    end

    it 'is deterministic' do
      40.times { |i| store.write("f#{i % 7}/n#{i}.txt", "hit #{i}\n" * 5) }
      results = Array.new(3) { run(store, 'hit', context: 1) }
      expect(results.uniq.size).to eq(1)
      expect(results.first.lines.grep(/:\d+:/).size).to eq(100)
    end
  end

  it 'reads no more of a store than a capped search needs' do
    reads = 0
    counting = Class.new(BucketStore) do
      define_method(:read) do |path|
        reads += 1
        super(path)
      end
    end.new
    1_000.times { |i| counting.write("notes/n#{i.to_s.rjust(4, '0')}.md", "hit #{i}\n" * 3) }
    result = run(counting, 'hit')
    expect(result.lines.grep(/:\d+:hit/).size).to eq(100)
    expect(reads).to be <= 128 # the parts read before the cap, not the 1,000 files
  end

  context 'on a NativeDir' do
    include_context 'in a temporary folder'
    before { @root = @tmp }

    let(:store) { RubyLLM::NativeDir.new(@root) }

    it 'leaves out hidden files even when a glob names them, and never follows links' do
      store.write('visible.md', "secret word\n")
      FileUtils.mkdir_p(File.join(@root, '.git'))
      File.write(File.join(@root, '.git/notes.md'), "secret word\n")
      File.write(File.join(@root, '.env.md'), "secret word\n")
      Dir.mktmpdir do |outside|
        File.write(File.join(outside, 'leak.md'), "secret word\n")
        File.symlink(outside, File.join(@root, 'linked'))
        File.symlink(File.join(outside, 'leak.md'), File.join(@root, 'link.md'))
        expect(run(store, 'secret', glob: '**/*.md')).to eq("visible.md:1:secret word\n")
        expect(run(store, 'secret', glob: '.env.md')).to eq("No matches.\n")
      end
    end

    it 'names binary files as skipped' do
      store.write('blob.dat', "\0\0secret\n".b)
      expect(run(store, 'secret')).to eq("No matches.\nSkipped 1 binary file: blob.dat. It has no text to search.\n")
    end

    context 'with a large tree', :heavy do
      before do
        line = "#{'lorem ipsum dolor sit amet ' * 4}\n"
        chunk = line * 40_000 # about 4.4 MB
        40.times { |i| File.binwrite(File.join(@root, "big-#{i.to_s.rjust(2, '0')}.txt"), chunk) }
      end

      it 'stops at its deadline and says what it covered' do
        result = run(store, 'no such text', timeout: 0.0)
        expect(result).to include('ran out of time')
      end

      it 'releases the GVL while it runs, and stops promptly when the thread is killed' do
        worker = Thread.new { loop { run(store, 'no such text', max_matches: nil, max_chars: nil) } }
        # A thread in a call without the GVL reports 'sleep' (Ruby marks it
        # stopped for the blocking region); one holding it runs, 'run'.
        give_up = Process.clock_gettime(Process::CLOCK_MONOTONIC) + 10
        released = false
        until released || Process.clock_gettime(Process::CLOCK_MONOTONIC) > give_up
          released = worker.status == 'sleep'
          Thread.pass
        end
        expect(released).to be(true)
        started = Process.clock_gettime(Process::CLOCK_MONOTONIC)
        worker.kill
        expect(worker.join(5)).not_to be_nil
        expect(Process.clock_gettime(Process::CLOCK_MONOTONIC) - started).to be < 2
      end

      it 'keeps memory flat in file size: a 400 MB file is searched in buffers' do
        script = File.expand_path('../../scripts/search_memory.rb', __dir__)
        output = IO.popen([RbConfig.ruby, script, '400'], &:read)
        expect(output).to include('result: huge.log:')
        before = output[/peak_kb_before: (\d+)/, 1].to_i
        after = output[/peak_kb_after: (\d+)/, 1].to_i
        expect(after - before).to be < 64 * 1024, output # far less than the file's 400 MB
      end

      it 'stops for Timeout' do
        expect { Timeout.timeout(0.05) { loop { run(store, 'no such text', max_matches: nil) } } }
          .to raise_error(Timeout::Error)
      end
    end
  end
end
