# frozen_string_literal: true

require 'digest'
require 'fileutils'
require 'securerandom'

# A folder file store written the obvious way in plain Ruby, as the baseline
# for bench/dir_store_bench.rb: Dir.glob to walk, File.binread and
# Digest::SHA256 to hash (no digest cache; another class with .hexdigest,
# such as OpenSSL::Digest::SHA256, can be passed in), and a small extension
# table for content types. It returns the same RubyLLM::StoredFile objects as
# RubyLLM::NativeDir, so the two stores' results can be compared directly.
#
# Deliberately simple: no path validation beyond refusing hidden names, no
# locking, no size cap.
class PlainRubyDirStore
  # Content types by extension: the entries of NativeDir's table for the
  # common types, so both stores name the corpus's files the same way.
  CONTENT_TYPES = {
    'txt' => 'text/plain', 'md' => 'text/markdown', 'markdown' => 'text/markdown',
    'csv' => 'text/csv', 'json' => 'application/json', 'yaml' => 'text/x-yaml',
    'yml' => 'text/x-yaml', 'xml' => 'application/xml', 'html' => 'text/html',
    'rb' => 'text/x-ruby', 'py' => 'text/x-python', 'rs' => 'text/x-rust',
    'js' => 'application/javascript', 'png' => 'image/png', 'jpg' => 'image/jpeg',
    'jpeg' => 'image/jpeg', 'gif' => 'image/gif', 'pdf' => 'application/pdf',
    'zip' => 'application/zip', 'gz' => 'application/gzip'
  }.freeze

  attr_reader :root

  # +durable+: false (the default) writes the obvious way, mkdir_p and
  # File.binwrite straight onto the target (not atomic, not synced). true
  # writes the way NativeDir does: a temporary file in the same folder,
  # fsync of the file, rename over the target (the folder is not synced).
  #
  # +digest+: the class whose .hexdigest gives the sha256 of a String.
  def initialize(root, durable: false, digest: Digest::SHA256)
    @root = File.expand_path(root)
    @durable = durable
    @digest = digest
    FileUtils.mkdir_p(@root)
  end

  # Every visible regular file under +folder+ (all when nil), sorted by path.
  # Dir.glob leaves out dot names by default and does not descend into
  # symlinked folders; lstat skips symlinks to files.
  def list(folder = nil)
    base = folder ? File.join(@root, folder) : @root
    return [] unless File.directory?(base) && !File.symlink?(base)

    Dir.glob('**/*', base:, sort: false).sort.filter_map do |rel|
      rel = folder ? "#{folder.chomp('/')}/#{rel}" : rel
      stored_file(rel)
    end
  end

  def [](path)
    stored_file(path)
  end

  def read(path)
    File.binread(full(path))
  end

  def write(path, content)
    target = full(path)
    FileUtils.mkdir_p(File.dirname(target))
    content = content.to_s.b
    @durable ? write_durably(target, content) : File.binwrite(target, content)
    stat = File.lstat(target)
    RubyLLM::StoredFile.new(path:, byte_size: content.bytesize, content_type: content_type(path, content),
                            digest: @digest.hexdigest(content), updated_at: stat.mtime)
  end

  def delete(path)
    file = stored_file(path)
    File.delete(full(path)) if file
    file
  end

  private

  def full(path)
    raise ArgumentError, "hidden path: #{path}" if path.split('/').any? { |part| part.start_with?('.') }

    File.join(@root, path)
  end

  def stored_file(path)
    abs = full(path)
    stat = File.lstat(abs)
    return unless stat.file?

    bytes = File.binread(abs)
    RubyLLM::StoredFile.new(path:, byte_size: bytes.bytesize, content_type: content_type(path, bytes),
                            digest: @digest.hexdigest(bytes), updated_at: stat.mtime)
  rescue Errno::ENOENT
    nil
  end

  # From the extension; when there is none (or an unknown one), text when the
  # first 8 KB is UTF-8 without NUL bytes, else octet-stream.
  def content_type(path, bytes)
    name = File.basename(path)
    dot = name.rindex('.')
    type = CONTENT_TYPES[name[(dot + 1)..].downcase] if dot&.positive?
    return type if type

    head = bytes.byteslice(0, 8192)
    head.include?("\0") || !text?(head) ? 'application/octet-stream' : 'text/plain'
  end

  # Valid UTF-8, allowing a character cut at the end of the sample.
  def text?(head)
    head = head.dup.force_encoding(Encoding::UTF_8)
    return true if head.valid_encoding?

    (1..3).any? { |cut| head.byteslice(0, head.bytesize - cut).valid_encoding? }
  end

  def write_durably(target, content)
    tmp = File.join(File.dirname(target), ".#{File.basename(target)}.#{SecureRandom.hex(6)}.tmp")
    File.open(tmp, 'wb') do |f|
      f.write(content)
      f.fsync
    end
    File.rename(tmp, target)
  rescue StandardError
    FileUtils.rm_f(tmp)
    raise
  end
end
