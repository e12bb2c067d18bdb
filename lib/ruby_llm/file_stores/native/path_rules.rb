# frozen_string_literal: true

module RubyLLM
  module FileStores
    module Native
      # RubyLLM::FileStore.path and .folder: the one definition of a valid path.
      module PathRules
        # The normalised form of a file path: relative, forward slashes
        # ("./a//b" is "a/b"). Raises ArgumentError for "..", absolute and
        # empty paths, NUL bytes and backslashes.
        def path(path)
          Native.normalize_path(path_string(path))
        end

        # The normalised form of a folder path; nil, "" and "." are the root ("").
        def folder(path)
          return '' if path.nil?

          Native.normalize_folder(path_string(path))
        end

        private

        def path_string(path)
          path = path.to_path if path.respond_to?(:to_path)
          unless path.is_a?(String)
            raise ArgumentError, "a file path must be a String like \"reports/q3.pdf\", not #{path.class}"
          end

          utf8 = path.encoding == Encoding::UTF_8 ? path : path.dup.force_encoding(Encoding::UTF_8)
          raise ArgumentError, "#{path.inspect} is not a valid file path: it is not UTF-8" unless utf8.valid_encoding?

          utf8
        end
      end
    end
  end
end
