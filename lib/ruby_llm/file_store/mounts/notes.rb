# frozen_string_literal: true

module RubyLLM
  class FileStore
    class Mounts < FileStore
      # The closing notes of a merged search (the files it skipped, and
      # why), one of each kind for the whole tree, worded as the engine
      # words them and held to the room left under the character cap.
      module Notes
        # How many names a note lists at most, as the engine lists.
        NOTE_NAMES = 20
        NARROW = 'Narrow the search with path or glob, or a more specific pattern.'

        # The closing notes the engine writes, in its order: kind, the
        # wording for one file and for several ({n} the count, {names} the
        # names), and the pattern that reads either back.
        ENGINE = [
          [:no_text, 'Skipped {n} file with no extracted text: {names}. Read them with read_file first.',
           'Skipped {n} files with no extracted text: {names}. Read them with read_file first.'],
          [:binary, 'Skipped {n} binary file: {names}. It has no text to search.',
           'Skipped {n} binary files: {names}. They have no text to search.'],
          [:unnamed, 'Skipped {n} file or folder whose name is not UTF-8, or holds a control character or a ' \
                     'backslash: {names}. Rename it to search it.',
           'Skipped {n} files or folders whose names are not UTF-8, or hold a control character or a ' \
           'backslash: {names}. Rename them to search them.'],
          [:deep, 'Skipped {n} folder deeper than a store path reaches: {names}. Move its files higher up to ' \
                  'search them.',
           'Skipped {n} folders deeper than a store path reaches: {names}. Move their files higher up to search ' \
           'them.'],
          [:failed, 'Could not search {n} file: {names}.', 'Could not search {n} files: {names}.']
        ].map do |kind, one, many|
          patterns = [one, many].map do |text|
            before, after = Regexp.escape(text).split('\\{names\\}')
            /\A#{before.sub('\\{n\\}', '(\d+)')}(.*)#{after}\n?\z/m
          end
          [kind, one, many, patterns]
        end.freeze

        module_function

        # The note saying why the search stopped (+why+: :matches, :chars
        # or :deadline), after +last+, the last file shown; +cut+, the file
        # the deadline came inside of (see StoreOutput#cut), worded as the
        # engine words it.
        def stop(why, request, last, outputs, cut: nil)
          return cut_note(cut, searched(outputs)) if why == :deadline && cut

          case why
          when :matches
            what = request[:files_only] ? 'files' : 'matching lines'
            "[Stopped after #{request[:max_matches]} #{what}; there are more. #{NARROW}]\n"
          when :chars
            "[Stopped at #{request[:max_chars]} characters; there are more matches. #{NARROW}]\n"
          else
            upto = last ? ", up to #{last}" : ''
            "[Stopped: the search ran out of time after #{searched(outputs)} files#{upto}. #{NARROW}]\n"
          end
        end

        def cut_note(cut, searched)
          at = cut[:line].positive? ? "at line #{cut[:line]} of #{cut[:path]}" : "at the start of #{cut[:path]}"
          before = searched.zero? ? '' : ", after #{searched} file#{'s' unless searched == 1} before it"
          "[Stopped: the search ran out of time #{at}#{before}. Read the rest of that file with read_file from " \
            "offset #{cut[:line] + 1}; to reach the files after it, narrow the search with path or glob.]\n"
        end

        # How many files were searched before the time ran out: what each
        # store that stopped says, and every file of those that finished.
        def searched(outputs)
          outputs.sum do |entry, output|
            next 0 if output.nil?
            next output.searched if output.searched

            entry.store.list.size
          end
        end

        # The notes of the StoreOutputs +outputs+, within +room+ bytes.
        def closing(outputs, room)
          out = +''
          ENGINE.each do |kind, one, many, _|
            paths, count = noted(outputs, kind)
            text = note(paths, count, one, many, room) or next
            room -= text.bytesize
            out << text
          end
          out
        end

        # The full paths a kind of note names, sorted, and how many files it
        # counts in all.
        def noted(outputs, kind)
          notes = outputs.filter_map { |output| output.notes.fetch(kind, nil) }
          [notes.flat_map { |n| n[:names] }.sort, notes.sum { |n| n[:count] }]
        end

        # The note for +count+ files, naming as many of +paths+ as fit in
        # +room+ bytes (at most NOTE_NAMES, a name never cut), as the engine
        # words it; nil when not even the note without names fits.
        def note(paths, count, one, many, room)
          return nil if count.zero?

          before, after = (count == 1 ? one : many).sub('{n}', count.to_s).split('{names}')
          after = "#{after}\n"
          fits = ->(names) { before.bytesize + names.bytesize + after.bytesize <= room }
          names = named(paths, count, fits)
          fits.call(names) ? "#{before}#{names}#{after}" : nil
        end

        # As many of +paths+ as +fits+, then how many more there are.
        def named(paths, count, fits)
          names = +''
          shown = 0
          paths.first(NOTE_NAMES).each do |path|
            longer = shown.zero? ? path : "#{names}, #{path}"
            break unless fits.call(longer + more(count, shown + 1))

            names = longer
            shown += 1
          end
          names << more(count, shown)
        end

        def more(count, shown)
          left = count - shown
          return '' if left.zero?

          shown.zero? ? "#{left} not named here" : ", and #{left} more"
        end
      end
    end
  end
end
