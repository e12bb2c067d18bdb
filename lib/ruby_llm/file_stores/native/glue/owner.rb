# frozen_string_literal: true

module RubyLLM
  module FileStores
    module Native
      # The pieces that give RubyLLM chats their files: plain Ruby objects
      # that work without ruby_llm, and the thin extensions (ChatExtension,
      # AgentExtension) that Native.install! puts into ruby_llm.
      module Glue
        # Owners of files: a record, or any object with an id.
        module Owner
          # The key a store files +owner+'s files under: its class and id,
          # like "User/42". An Active Record subclass counts as its base
          # class, so an STI record keeps one key.
          def self.key(owner)
            id = owner.respond_to?(:id) ? owner.id : nil
            raise ArgumentError, "an owner must be a record or an object with an id, not #{owner.inspect}" if id.nil?

            klass = owner.class.respond_to?(:base_class) ? owner.class.base_class : owner.class
            "#{klass.name || klass}/#{id}"
          end
        end

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

  class FileStore # :nodoc:
    include FileStores::Native::Glue::OwnerScoping

    # Why a store for an owner refuses to delete the shared file at +path+.
    def self.shared_file_message(path)
      "#{path} is shared with everyone in this chat, so you cannot delete it. You can replace it with your " \
        'own version with write_file; that leaves the shared file to the others.'
    end
  end
end
