# frozen_string_literal: true

module RubyLLM
  class FileStore
    class Mounts < FileStore
      # What comes out of a mounted store, put in the tree's terms: its
      # StoredFiles and the paths its errors name carry the full path
      # ("handbook/policy.md", not "policy.md"), since the model and the
      # caller only know those.
      module FullPaths # :nodoc:
        # The errors whose message names a path (RubyLLM::FileNotFoundError,
        # FileStoreFullError, ArgumentError for a bad place...).
        RENAMED = [ArgumentError, RubyLLM::FileNotFoundError, RubyLLM::FileStoreFullError,
                   RubyLLM::FileStore::ConversionError].freeze
        # The errors made from the path they name, made again for the full one.
        REMADE = [RubyLLM::FileStore::ReadOnlyError, RubyLLM::FileExistsError].freeze

        # Where a path ends in a message: a space, a quote or bracket, a
        # comma or colon, or a full stop that ends a sentence.
        AFTER = /(?=[\s)\]"',:;]|\.(?:\s|\z)|\z)/
        # Where one starts: the start, a space, a quote or bracket (not a
        # slash: "notes/policy.md" is another path).
        BEFORE = /(?<![^\s(\["'])/

        module_function

        # +file+ (a StoredFile of +entry+'s store) at its full path.
        def file(entry, file)
          return file if file.nil? || entry.default?

          StoredFile.new(path: entry.full(file.path), byte_size: file.byte_size, content_type: file.content_type,
                         digest: file.digest, updated_at: file.updated_at)
        end

        # Whether +full+ (a mount's path with the mount's name in front) is a
        # store path the model can give back: a path deep or long enough in
        # its own store can be too deep or too long once the name is added.
        def reachable?(full)
          FileStore.path(full)
          true
        rescue ArgumentError
          false
        end

        # +file+ (a StoredFile with a full path) as +entry+'s store has it.
        def inner_file(entry, file)
          return file if entry.default?

          StoredFile.new(path: entry.inner(file.path), byte_size: file.byte_size, content_type: file.content_type,
                         digest: file.digest, updated_at: file.updated_at)
        end

        # Runs the block (a call into +entry+'s store about the paths
        # +inners+) and raises what it raises with those paths named by their
        # full paths.
        def naming(entry, *inners)
          yield
        rescue *RENAMED, *REMADE => e
          raise if entry.default?

          raise renamed(e, entry, inners)
        end

        # +error+ with its message naming the full paths of +inners+; a
        # ReadOnlyError made again for the full path, so that #path and the
        # advice name it too.
        def renamed(error, entry, inners)
          return error.class.new(entry.full(error.path || inners.first)) if REMADE.any? { |klass| error.is_a?(klass) }

          message = inners.compact.uniq.sort_by { |inner| -inner.size }.reduce(error.message) do |text, inner|
            text.gsub(/#{BEFORE}#{Regexp.escape(inner)}#{AFTER}/) { entry.full(inner) }
          end
          message == error.message ? error : error.exception(message)
        end
      end
    end
  end
end
