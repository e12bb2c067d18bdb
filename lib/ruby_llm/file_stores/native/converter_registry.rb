# frozen_string_literal: true

module RubyLLM
  module FileStores
    module Native
      # The Hash behind +config.file_converters+: content type => converter
      # (or an Array of them). A key must be what Converters.chain looks
      # files up by: a content type ('application/pdf'), a family
      # ('image/*') or '*/*'. Anything else ('pdf', '.pdf') would never
      # match a file, so it is refused when it is set, saying what to write.
      class ConverterRegistry < Hash
        # A content type, a family or '*/*', as RFC 6838 spells their names.
        KEY = %r{\A(?:\*/\*|[a-z0-9][a-z0-9!$&#^_.+-]*/(?:\*|[a-z0-9][a-z0-9!$&#^_.+-]*))\z}i

        # A registry holding +converters+ (a Hash), each key checked.
        def self.of(converters)
          new.update(converters)
        end

        # Registers +converters+ for +type+; raises ArgumentError when +type+
        # is not a content type, a family or '*/*'.
        def []=(type, converters)
          super(self.class.check(type), converters)
        end

        # Same as <tt>[]=</tt>.
        def store(type, converters)
          super(self.class.check(type), converters)
        end

        # Adds every pair of the Hashes given, each key checked first: when
        # one is refused, nothing is added.
        def update(*others, &)
          others.each { |other| other.each_key { |type| self.class.check(type) } }
          super
        end
        alias merge! update

        # +type+ when it can be a key; raises ArgumentError saying what to
        # write instead.
        def self.check(type)
          return type if (type.is_a?(String) || type.is_a?(Symbol)) && KEY.match?(type.to_s)

          raise ArgumentError, "file_converters[#{type.inspect}]: #{type.inspect} is not a content type, so no file " \
                               "would ever match it. #{suggestion(type)}"
        end

        def self.suggestion(type)
          example = "Register converters by content type (such as 'application/pdf'), by family ('image/*') or for " \
                    "every type ('*/*')"
          name = type.to_s.delete_prefix('.')
          guess = Native.content_type_for("file.#{name}", ''.b) unless name.empty? || name.include?('/')
          return "#{example}." if guess.nil? || guess == 'application/octet-stream'

          "#{example}: for .#{name} files, write config.file_converters['#{guess}']."
        end
        private_class_method :suggestion
      end
    end
  end
end
