# frozen_string_literal: true

module RubyLLM
  module FileStores
    module Native
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
    end
  end
end
