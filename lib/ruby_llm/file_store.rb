# frozen_string_literal: true

module RubyLLM
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
    include FileStores::Native::OwnerScoping
    singleton_class.include(FileStores::Native::PathRules)

    # Why a store for an owner refuses to delete the shared file at +path+.
    def self.shared_file_message(path)
      "#{path} is shared with everyone in this chat, so you cannot delete it. You can replace it with your " \
        'own version with write_file; that leaves the shared file to the others.'
    end

    # +read_only+, a store's read_only: option, checked: true or false.
    def self.read_only_option(read_only)
      return read_only if [true, false].include?(read_only)

      raise ArgumentError, "read_only must be true or false, not #{read_only.inspect}"
    end

    # +max_bytes+, a store's max_bytes: option, checked: a positive Integer or nil.
    def self.max_bytes_option(max_bytes)
      return max_bytes if !max_bytes || (max_bytes.is_a?(Integer) && max_bytes.positive?)

      raise ArgumentError, "max_bytes must be a positive Integer or nil, not #{max_bytes.inspect}"
    end

    # The folder path of a store argument given as a String or Pathname
    # (with_file_store, the agent's file_store, mounts:). A String that
    # reads "memory" (or ":memory") is refused, naming :memory: it comes
    # from a setting in YAML or ENV meant as the Symbol, and as a folder it
    # would be made in the current directory. Pathname("memory") or
    # "./memory" name that folder.
    def self.folder_argument(value)
      return value.to_s unless value.is_a?(String) && %w[memory :memory].include?(value.strip.downcase)

      raise ArgumentError, "#{value.inspect} would be a folder named #{value.strip} in the current directory. For a " \
                           "store in memory pass the Symbol :memory (from YAML or ENV: value == 'memory' ? :memory " \
                           ": value); for a folder of that name pass './memory'."
    end

    # Every store's write raises the write event (FileStores::Native::WriteEvents),
    # every change of a read-only store is refused before it starts
    # (FileStores::Native::ReadOnlyGuard), and every change of a store with
    # history becomes a version (FileStores::Native::HistoryRecorder, behind
    # the refusal, so a refused change records nothing).
    def self.inherited(subclass)
      super
      subclass.prepend(FileStores::Native::HistoryRecorder)
      subclass.prepend(FileStores::Native::ReadOnlyGuard)
      subclass.prepend(FileStores::Native::WriteEvents)
    end
  end
end
