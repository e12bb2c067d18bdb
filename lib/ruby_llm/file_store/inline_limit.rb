# frozen_string_literal: true

module RubyLLM
  class FileStore
    # The +inline_limit+ macro of tool classes: the characters a tool's result
    # may have and still go to the model whole. Longer results are saved in
    # the chat's files (see FileStore::ChatFiles::LongResults).
    #
    #   class SearchDocs < RubyLLM::Tool
    #     inline_limit false     # pages its own results: always sent whole
    #   end
    #
    #   class ExportOrders < RubyLLM::Tool
    #     inline_limit 50_000
    #   end
    #
    # Subclasses inherit the setting; +inline_limit nil+ goes back to the
    # chat's limit. With ruby_llm loaded, RubyLLM::Tool is extended with it.
    module InlineLimit # :nodoc:
      UNSET = Object.new.freeze
      private_constant :UNSET

      # With a value, sets it: false, nil, or a whole number from 1000.
      # Without one, returns the setting: false, an Integer, or nil for the
      # chat's limit.
      def inline_limit(value = UNSET)
        return inherited_inline_limit if value.equal?(UNSET)

        @file_store_inline_limit = InlineLimit.check(value, allow_nil: true)
      end

      # +value+ when it is a valid inline limit: false, a whole number from
      # 1000, or (with +allow_nil+) nil. Raises ArgumentError otherwise.
      def self.check(value, allow_nil: false)
        return value if value == false || (allow_nil && value.nil?)
        return value if value.is_a?(Integer) && value >= 1_000

        raise ArgumentError,
              "inline_limit must be false or a whole number of characters from 1000, not #{value.inspect}"
      end

      private

      def inherited_inline_limit
        return @file_store_inline_limit if instance_variable_defined?(:@file_store_inline_limit)

        parent = is_a?(Class) ? superclass : nil
        parent.respond_to?(:inline_limit) ? parent.inline_limit : nil
      end
    end
  end
end
