# frozen_string_literal: true

module RubyLLM
  class FileStore
    # What RubyLLM::FileStore#listing gives: the files of a folder, as #list
    # gives them, and what the store left out of them:
    #
    # - +unnamed+: paths whose names no store path can hold (not UTF-8, a
    #   control character such as a newline, a backslash), made by code or
    #   another process, escaped so that each stays on one line;
    # - +deep+: folders nested deeper than a store path reaches
    #   (RubyLLM::FileStores::Native::MAX_PATH_DEPTH names);
    # - +empty+ (a tree of stores, Mounts): the folders in it where a store
    #   with no files yet is mounted, which no file shows; nil elsewhere.
    Listing = Struct.new(:files, :unnamed, :deep, :empty, keyword_init: true) do
      # One line for each kind of path left out, naming them; none when
      # nothing was left out.
      def notes
        [
          note(unnamed, 'file or folder whose name no store path can hold (not UTF-8, or with a control ' \
                        'character or a backslash)', 'Rename it to reach it.'),
          note(deep, "folder deeper than a store path reaches (#{FileStores::Native::MAX_PATH_DEPTH} names)",
               'Move its files higher up to reach them.'),
          empty_note
        ].compact
      end

      private

      def empty_note
        return nil if empty.nil? || empty.empty?

        shown = empty.first(Listing::SHOWN_NAMES).map { |name| "#{name}/" }
        more = empty.size > Listing::SHOWN_NAMES ? " and #{empty.size - Listing::SHOWN_NAMES} more" : ''
        "[#{empty.size == 1 ? 'An empty folder' : 'Empty folders'}: #{shown.join(', ')}#{more}]"
      end

      def note(paths, what, advice)
        return nil if paths.nil? || paths.empty?

        shown = paths.first(Listing::SHOWN_NAMES).map do |p|
          p.size > Listing::SHOWN_CHARS ? "#{p[0, Listing::SHOWN_CHARS]}..." : p
        end
        more = paths.size > Listing::SHOWN_NAMES ? " and #{paths.size - Listing::SHOWN_NAMES} more" : ''
        what = what.sub('file or folder', 'files or folders').sub('folder deeper', 'folders deeper') if paths.size > 1
        "[Left out #{paths.size} #{what}: #{shown.join(', ')}#{more}. #{advice}]"
      end
    end
    # How many names a note shows, and how much of each.
    Listing::SHOWN_NAMES = 20
    Listing::SHOWN_CHARS = 200
  end
end
