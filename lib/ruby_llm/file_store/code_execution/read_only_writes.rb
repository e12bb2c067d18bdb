# frozen_string_literal: true

module RubyLLM
  class FileStore
    class CodeExecution
      # What code tried to write under a mount bound read-only. The bind
      # refuses the write (EROFS) and nothing reaches the host, so the only
      # trace is the program's own error: each line of its output that says
      # "Read-only file system" is read for paths under such a mount, as
      # Python ([Errno 30] Read-only file system: 'handbook/x.md'), Ruby
      # (Read-only file system @ rb_sysopen - handbook/x.md), sh and the
      # coreutils print them, relative to the run's folder or absolute in it.
      #
      # Limits: a write whose error the code swallows or rewords, a path
      # relative to another working folder, or a path with spaces or a
      # colon outside quotes is not named; the run's notes still say which
      # mounts are read-only.
      module ReadOnlyWrites # :nodoc:
        MESSAGE = 'Read-only file system'
        # The most paths named: the output is the code's, which may repeat
        # the message with a new path on each of a million lines.
        LIMIT = 50
        QUOTED = /'([^']+)'|"([^"]+)"/
        SEPARATORS = /[\s'"():,]+/

        module_function

        # The store paths under +names+ (mount names bound read-only) that
        # +texts+ (stdout, stderr) say a write was refused for, the first
        # LIMIT of them; +workdir+: where the code sees the run's folder.
        def paths(texts, names, workdir)
          return [] if names.empty?

          lines = texts.lazy.select { |text| text.include?(MESSAGE) }.flat_map { |text| text.each_line.lazy }
          lines.select { |line| line.include?(MESSAGE) }.flat_map { |line| candidates(line) }
               .filter_map { |word| under(word, names, workdir) }.uniq.first(LIMIT)
        end

        # The quoted strings of +line+, then its other words (a quoted path
        # with spaces is one candidate, not its pieces).
        def candidates(line)
          line.scan(QUOTED).flatten.compact + line.gsub(QUOTED, ' ').split(SEPARATORS)
        end

        # +word+ as a store path under one of +names+, else nil.
        def under(word, names, workdir)
          word = word.delete_prefix("#{workdir}/")
          return nil if word.start_with?('/')

          path = FileStore.path(word)
          path if names.any? { |name| path.start_with?("#{name}/") }
        rescue ArgumentError
          nil
        end

        # The note naming +paths+, under the read-only +names+.
        def note(paths, names)
          "#{names.join(', ')} #{names.size == 1 ? 'is' : 'are'} read-only: the code could not write " \
            "#{paths.join(', ')} (Read-only file system), and nothing of it was kept. Write your own copy " \
            "elsewhere, such as notes/#{File.basename(paths.first)}, or scratch files in /tmp."
        end
      end
    end
  end
end
