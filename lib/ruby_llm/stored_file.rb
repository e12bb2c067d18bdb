# frozen_string_literal: true

module RubyLLM
  # One file in a FileStore: its path, size, type and digest. A value: two
  # StoredFiles with the same attributes are equal.
  #
  #   file = store.find('reports/q3.pdf')
  #   file.filename      # => "q3.pdf"
  #   file.human_size    # => "2.1 MB"
  class StoredFile
    # The relative path, with forward slashes, like "reports/q3.pdf".
    attr_reader :path
    # The size in bytes.
    attr_reader :byte_size
    # The content type, like "application/pdf".
    attr_reader :content_type
    # The sha256 of the bytes in lowercase hex, or nil when the store cannot tell.
    attr_reader :digest
    # When the file last changed, or nil when the store cannot tell.
    attr_reader :updated_at

    UNITS = %w[KB MB GB TB PB].freeze
    private_constant :UNITS

    # A file's description; +digest+ is its sha256 in hex.
    def initialize(path:, byte_size:, content_type:, digest: nil, updated_at: nil)
      @path = frozen_string(path)
      @byte_size = Integer(byte_size)
      @content_type = -content_type.to_s # few distinct types: one shared copy each
      @digest = digest && frozen_string(digest)
      @updated_at = updated_at
      freeze
    end

    # The last part of the path: "q3.pdf" for "reports/q3.pdf".
    def filename
      File.basename(path)
    end

    # The size for people and models: "812 bytes", "48 KB", "2.1 MB".
    def human_size = StoredFile.human_size(byte_size)

    # +bytes+ as human_size shows a file's size.
    def self.human_size(bytes)
      return bytes == 1 ? '1 byte' : "#{bytes} bytes" if bytes < 1024

      size = bytes.to_f
      unit = UNITS.find do
        size /= 1024
        size < 1024
      end || UNITS.last
      size < 10 ? "#{format('%.1f', size).delete_suffix('.0')} #{unit}" : "#{size.round} #{unit}"
    end

    # The attributes as a Hash.
    def to_h
      { path:, filename:, byte_size:, content_type:, digest:,
        updated_at: }
    end

    # Two StoredFiles are equal when every attribute is.
    def ==(other)
      other.is_a?(StoredFile) && other.path == path && other.byte_size == byte_size &&
        other.content_type == content_type && other.digest == digest
    end
    alias eql? ==

    # The hash of the attributes, as == compares.
    def hash
      [path, byte_size, content_type, digest].hash
    end

    # The path, size and type, for the console.
    def inspect
      "#<#{self.class.name} path: #{path.inspect}, byte_size: #{byte_size}, content_type: #{content_type.inspect}>"
    end
    alias to_s inspect

    private

    # Paths and digests are mostly unique, so they are frozen as they come
    # (the binding hands over frozen strings of its own) rather than
    # interned: interning each would cost a table entry per file listed.
    def frozen_string(value)
      value.is_a?(String) && value.frozen? ? value : value.to_s.dup.freeze
    end
  end
end
