# frozen_string_literal: true

module RubyLLM
  module FileStores
    module Native
      # What every RubyLLM::FileStore answers about owners. A store that
      # can keep files for several owners (Memory, Active Storage)
      # overrides for_owner; the rest refuse one.
      module OwnerScoping
        # The owner this store writes files for, or nil.
        def owner
          nil
        end

        # A store over the same files that writes files for +owner+ and
        # sees only theirs and the files without an owner, preferring
        # theirs when both have a path. This store cannot: it raises
        # ArgumentError.
        def for_owner(owner)
          raise ArgumentError,
                "#{self.class.name || self.class} cannot keep files for an owner (#{owner.inspect}): use a memory " \
                'or Active Storage store, or leave out owner:'
        end
      end
    end
  end
end
