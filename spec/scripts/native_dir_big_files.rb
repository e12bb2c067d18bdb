# frozen_string_literal: true

# Run by spec/guarantees/native_dir_big_files_spec.rb in a fresh Ruby, one
# case per process: a sparse file of +megabytes+ MB (a marker every 16 MB,
# so order counts) copied through a NativeDir. Prints one JSON line with
# how much the step grew the process's peak resident memory (VmHWM, MB),
# the digest and size the store gave (each_chunk: of what it yielded), and
# the digests of the source and the result.
#
#   ruby spec/scripts/native_dir_big_files.rb each_chunk 200
#   ruby spec/scripts/native_dir_big_files.rb write_io 200
#   ruby spec/scripts/native_dir_big_files.rb mounts_move 200

$LOAD_PATH.unshift(File.expand_path('../../lib', __dir__))
require 'ruby_llm/file_stores/native'
require 'digest'
require 'json'
require 'tmpdir'

def peak_kb = File.read('/proc/self/status')[/VmHWM:\s+(\d+)/, 1].to_i

def make_sparse(path, bytes)
  File.open(path, 'wb') do |file|
    (0...bytes).step(16 << 20) do |at|
      file.seek(at)
      file.write("marker at #{at}\n")
    end
    file.truncate(bytes)
  end
end

mode, megabytes = ARGV
bytes = megabytes.to_i << 20
Dir.mktmpdir('native-big') do |dir|
  source = File.join(dir, 'source.bin')
  make_sparse(source, bytes)
  store = RubyLLM::NativeDir.new(File.join(dir, 'store'))
  result = File.join(store.local_root, 'big.bin')
  make_sparse(result, bytes) unless mode == 'write_io'
  GC.start
  before = peak_kb
  stored = case mode
           when 'each_chunk'
             copy = Digest::SHA256.new
             size = 0
             store.each_chunk('big.bin') { |chunk| copy << chunk and size += chunk.bytesize }
             { digest: copy.hexdigest, byte_size: size }
           when 'write_io'
             File.open(source, 'rb') { |io| store.write('big.bin', io) }.to_h
           when 'mounts_move'
             other = RubyLLM::NativeDir.new(File.join(dir, 'other'))
             tree = RubyLLM::FileStore::Mounts.new(store, 'other' => other)
             result = File.join(other.local_root, 'big.bin')
             tree.move('big.bin', 'other/big.bin').to_h
           else raise ArgumentError, "unknown case #{mode}"
           end
  grown_mb = ((peak_kb - before) / 1024.0).round(1)
  # each_chunk's copy is what it yielded; the others' is the file written.
  copied = mode == 'each_chunk' ? stored[:digest] : Digest::SHA256.file(result).hexdigest
  puts JSON.generate(grown_mb:, stored_digest: stored[:digest], byte_size: stored[:byte_size],
                     source_digest: Digest::SHA256.file(source).hexdigest, copied_digest: copied)
end
