# frozen_string_literal: true

module RubyLLM
  # One version of a file in a store's history (see FileStore#versions): the
  # file as one change left it. A frozen value.
  #
  #   store.versions('notes.md').first
  #   # => #<RubyLLM::FileVersion notes.md #7 changed by "edit_file">
  class FileVersion
    # What made a version: a change through the store, in the words of
    # FileStore#versions.
    CHANGES = %i[created changed deleted moved_in moved_out restored].freeze

    # The file's path.
    attr_reader :path
    # The version's id, unique in its store's history and growing with time.
    attr_reader :id
    # What the change did: one of CHANGES.
    attr_reader :change
    # The sha256 of the bytes (nil for a deletion or a move away).
    attr_reader :digest
    # The size in bytes (0 for a deletion or a move away).
    attr_reader :byte_size
    # The content type (nil for a deletion or a move away).
    attr_reader :content_type
    # When the change was made.
    attr_reader :created_at
    # What made the change: a tool's name ("write_file"), :code for
    # run_code, :app for the application's own calls, :attachment for a kept
    # attachment, nil for a file that was there before the history.
    attr_reader :by

    # A version; made by the stores' history (see RubyLLM::FileStore#versions), not by hand.
    def initialize(path:, id:, change:, digest:, byte_size:, content_type:, created_at:, by:, kept: true)
      raise ArgumentError, "change must be one of #{CHANGES.join(', ')}, not #{change.inspect}" unless
        CHANGES.include?(change)

      @path = path.to_s.dup.freeze
      @id = id
      @change = change
      @digest = digest&.to_s&.dup&.freeze
      @byte_size = Integer(byte_size)
      @content_type = content_type&.to_s&.dup&.freeze
      @created_at = created_at
      @by = by.is_a?(String) ? by.dup.freeze : by
      @kept = kept ? true : false
      freeze
    end

    # Whether its bytes were kept: false for a version over the history's
    # max_version_bytes (recorded, never missing, but not readable).
    def kept? = @kept

    # Whether the version has bytes: false for a deletion or a move away.
    def content?
      !digest.nil?
    end

    # The attributes as a Hash.
    def to_h
      { path:, id:, change:, digest:, byte_size:, content_type:, created_at:, by:, kept: @kept }
    end

    # Two versions are equal when every attribute is.
    def ==(other)
      other.is_a?(FileVersion) && other.to_h == to_h
    end
    alias eql? ==

    # The hash of the attributes, as == compares.
    def hash = to_h.hash

    # The path, id, change and what made it, for the console.
    def inspect
      "#<#{self.class.name} #{path} ##{id} #{change} by #{by.inspect}>"
    end
  end
end
