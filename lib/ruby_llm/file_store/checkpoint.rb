# frozen_string_literal: true

module RubyLLM
  class FileStore
    # A point in a store's history (FileStore#checkpoint): what
    # FileStore#changes_since and FileStore#rewind go back to. A frozen
    # value; its id is all a store needs, so an app may keep it (a chat keeps
    # one per question) and make it again with Checkpoint.new(id:).
    class Checkpoint
      # The id of the newest version when the checkpoint was taken (0: none yet).
      attr_reader :id
      # When it was taken, or nil when made again from an id.
      attr_reader :created_at

      # A checkpoint of id +id+ (the last version before it), taken at +created_at+.
      def initialize(id:, created_at: nil)
        raise ArgumentError, "a checkpoint's id is an Integer of 0 or more, not #{id.inspect}" unless
          id.is_a?(Integer) && !id.negative?

        @id = id
        @created_at = created_at
        freeze
      end

      # Two checkpoints are equal when their ids are.
      def ==(other) = other.is_a?(Checkpoint) && other.id == id
      alias eql? ==
      # The hash of the id, as == compares.
      def hash = id.hash

      # The checkpoint's id, for the console.
      def inspect = "#<#{self.class.name} #{id}>"

      # One file's change since a checkpoint (FileStore#changes_since): its
      # +path+, what happened to it (+change+: :created, :changed, :deleted,
      # :moved_in, :moved_out), the version it had at the checkpoint
      # (+before+, nil when there was none) and its newest (+after+).
      Change = Struct.new(:path, :change, :before, :after, keyword_init: true)
    end
  end
end
