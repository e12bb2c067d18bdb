# frozen_string_literal: true

require 'digest'
require 'fileutils'
require 'stringio'
require 'timeout'

RSpec.describe RubyLLM::NativeDir::Streaming, :native do
  subject(:store) { RubyLLM::NativeDir.new(root) }

  include_context 'in a temporary folder'

  let(:root) { File.join(@tmp, 'store') }
  let(:outside) { File.join(@tmp, 'outside').tap { |dir| FileUtils.mkdir_p(dir) } }
  # Two chunks and a bit, every byte value, no run of a chunk's length alike.
  let(:body) { Random.new(7).bytes((2 << 20) + 12_345) }

  # Everything in the store's folder, hidden (temporary) files too.
  def on_disk = Dir.children(root).sort

  def open_descriptors = Dir.children('/proc/self/fd').size

  # Whether another thread can take the store's lock within a second.
  def lock_free?
    Thread.new { Timeout.timeout(1) { store.with_lock { true } } }.value
  rescue Timeout::Error
    false
  end

  # An IO that gives +good+ chunks of +io+, then raises.
  def failing_after(io, good)
    reads = 0
    io.define_singleton_method(:read) do |*args|
      (reads += 1) > good ? raise(IOError, 'the upload broke off') : super(*args)
    end
    io
  end

  describe '#each_chunk' do
    it 'yields the exact bytes in order, a megabyte at a time, and returns nil' do
      store.write('big.bin', body)
      chunks = []
      expect(store.each_chunk('big.bin') { |chunk| chunks << chunk.dup }).to be_nil
      expect(chunks.map(&:bytesize)).to eq([1 << 20, 1 << 20, 12_345])
      expect(chunks.join).to eq(body)
      expect(chunks.map(&:encoding).uniq).to eq([Encoding::BINARY])
      expect(store.each_chunk('big.bin').map(&:dup).join).to eq(body)
    end

    it 'empties each chunk when the block returns, as Active Storage does, unless the block froze it' do
      store.write('big.bin', body)
      kept = []
      store.each_chunk('big.bin') { |chunk| kept << chunk }
      expect(kept.map(&:bytesize)).to eq([0, 0, 0])
      frozen = []
      store.each_chunk('big.bin') { |chunk| frozen << chunk.freeze }
      expect(frozen.join).to eq(body)
    end

    it 'yields nothing for an empty file, and refuses a missing file, a folder and a link' do
      store.write('empty.txt', '')
      store.write('docs/a.md', 'a')
      File.write(File.join(outside, 'secret.md'), 'secret')
      File.symlink(File.join(outside, 'secret.md'), File.join(root, 'link.md'))
      File.symlink(outside, File.join(root, 'out'))
      expect(store.each_chunk('empty.txt').to_a).to eq([])
      expect { store.each_chunk('missing.md') { nil } }.to raise_error(RubyLLM::FileNotFoundError)
      expect { store.each_chunk('docs') { nil } }.to raise_error(ArgumentError, /folder/)
      expect { store.each_chunk('link.md') { nil } }.to raise_error(RubyLLM::FileNotFoundError)
      expect { store.each_chunk('out/secret.md') { nil } }.to raise_error(RubyLLM::FileNotFoundError)
      expect { store.each_chunk('../outside/secret.md') { nil } }.to raise_error(ArgumentError)
    end

    it 'closes the file when the block breaks or raises' do
      store.write('big.bin', body)
      GC.start # closes what earlier examples left to finalizers, which would change the count
      before = open_descriptors
      10.times { store.each_chunk('big.bin') { break } } # rubocop:disable Lint/UnreachableLoop
      10.times do
        expect { store.each_chunk('big.bin') { raise 'stop' } }.to raise_error(RuntimeError, 'stop') # rubocop:disable Lint/UnreachableLoop
      end
      GC.start # a leaked File would have been closed by its finalizer only
      expect(open_descriptors).to eq(before)
    end
  end

  describe '#write of an IO' do
    it 'writes a File, a StringIO (from its start) and a pipe, with the digest of the bytes' do
      source = File.join(outside, 'source.bin')
      File.binwrite(source, body)
      from_file = File.open(source, 'rb') { |io| store.write('file.bin', io) }
      string_io = StringIO.new(body).tap { |io| io.read(100) }
      from_string_io = store.write('string_io.bin', string_io)
      reader, writer = IO.pipe
      feeder = Thread.new { writer.write(body) && writer.close }
      from_pipe = store.write('pipe.bin', reader)
      feeder.join
      [from_file, from_string_io, from_pipe].each do |file|
        expect(file).to have_attributes(byte_size: body.bytesize, digest: Digest::SHA256.hexdigest(body))
        expect(store.read(file.path)).to eq(body)
        expect(store[file.path]).to eq(file)
      end
      expect(on_disk).to eq(%w[file.bin pipe.bin string_io.bin])
    end

    it 'tells the content type from the name, else from the first bytes' do
      expect(store.write('notes.md', StringIO.new("# Notes\n")).content_type).to eq('text/markdown')
      expect(store.write('scan', StringIO.new("%PDF-1.7\n#{'x' * 100}")).content_type).to eq('application/pdf')
    end

    it 'leaves the old file whole, no temporary file and the lock free when the IO raises mid-way' do
      store.write('big.bin', 'old bytes')
      expect { store.write('big.bin', failing_after(StringIO.new(body), 2)) }
        .to raise_error(IOError, 'the upload broke off')
      expect(store.read('big.bin')).to eq('old bytes')
      expect(on_disk).to eq(['big.bin'])
      expect(lock_free?).to be(true)
    end

    it 'leaves the old file and frees the lock when a Timeout stops a write waiting on a pipe' do
      store.write('slow.txt', 'old')
      reader, writer = IO.pipe
      writer.write('a first part')
      expect { Timeout.timeout(0.5) { store.write('slow.txt', reader) } }.to raise_error(Timeout::Error)
      expect(store.read('slow.txt')).to eq('old')
      expect(on_disk).to eq(['slow.txt'])
      expect(lock_free?).to be(true)
    ensure
      [reader, writer].each { |io| io&.close }
    end

    it 'refuses a write past max_bytes with the usual message, keeping the old file' do
      capped = RubyLLM::NativeDir.new(root, max_bytes: 3 << 20)
      capped.write('a.bin', 'x' * (1 << 20))
      capped.write('b.bin', 'old')
      expect { capped.write('b.bin', StringIO.new(body)) }
        .to raise_error(RubyLLM::FileStoreFullError,
                        /\AThis chat's files are full: delete or overwrite files\. Writing b\.bin needs \d+ bytes/)
      expect(capped.read('b.bin')).to eq('old')
      expect(on_disk).to eq(%w[a.bin b.bin])
      expect(capped.write('b.bin', StringIO.new(body.byteslice(0, 2 << 20))).byte_size).to eq(2 << 20)
    end

    it 'refuses a path that is or goes through a link, as a String write does' do
      File.write(File.join(outside, 'secret.md'), 'secret')
      File.symlink(File.join(outside, 'secret.md'), File.join(root.tap { FileUtils.mkdir_p(_1) }, 'link.md'))
      File.symlink(outside, File.join(root, 'out'))
      %w[link.md out/new.md].each do |path|
        expect { store.write(path, 'x') }.to raise_error(ArgumentError, /symbolic link/)
        expect { store.write(path, StringIO.new('x')) }.to raise_error(ArgumentError, /symbolic link/)
      end
      expect(Dir.children(outside)).to eq(['secret.md'])
      expect(File.read(File.join(outside, 'secret.md'))).to eq('secret')
      expect(lock_free?).to be(true)
    end

    it 'refuses a read that gives something other than a String, and reads whole an IO whose read takes no length' do
      odd = Object.new
      def odd.read(_length = nil, _buffer = nil) = 42
      expect { store.write('odd.txt', odd) }.to raise_error(ArgumentError, /Integer, not a String or nil/)
      expect(on_disk).to eq([])
      plain = Object.new
      def plain.read = 'all at once'
      expect(store.write('plain.txt', plain).byte_size).to eq(11)
    end

    it 'announces the file it wrote, as a String write does' do
      _, written = RubyLLM::FileStores::Native::WriteEvents.listen(store) { store.write('a.md', StringIO.new('a')) }
      expect(written.map(&:path)).to eq(['a.md'])
    end
  end
end
