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

  # A place for a chat's files. Subclass it and implement five methods
  # (list, [], read, write, delete); find, exist?, delete_folder, with_lock,
  # text, and the memories of reads and converted texts come with it.
  #
  #   class BucketStore < RubyLLM::FileStore
  #     def initialize(bucket)
  #       super()
  #       @bucket = bucket
  #     end
  #
  #     def list(prefix = nil) = ...
  #     def [](path) = ...
  #     def read(path) = ...
  #     def write(path, content, content_type: nil) = ...
  #     def delete(path) = ...
  #   end
  #
  # Methods that ruby_llm itself defines on FileStore take precedence: these
  # modules are included, so they only fill what is missing.
  class FileStore
    include FileStores::Native::StoreMethods
    singleton_class.include(FileStores::Native::PathRules)

    # Every store's write raises the write event (FileStores::Native::WriteEvents).
    def self.inherited(subclass)
      super
      subclass.prepend(FileStores::Native::WriteEvents)
    end
  end
end
