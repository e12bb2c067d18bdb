# frozen_string_literal: true

module RubyLLM
  class FileStore
    class CodeExecution
      # What the code wrote in a folder in place at a path the tree gives
      # to another store: the folder's own file or folder at a mount's
      # path, which the run saw where the mount could not be put over it (a
      # file or a link there, or no sandbox to bind with). The tree hides
      # it, so no tool reads what was written there: it is named as not
      # kept, never as saved.
      module HiddenWrites # :nodoc:
        module_function

        # The full paths of +placed+ (Swept of each folder) written in
        # place that +layout+ gives to another store than the folder's.
        def paths(placed, layout) = hidden(placed, layout) { |sweep| sweep.created + sweep.changed }

        # What the code deleted at such paths: the folder's own hidden
        # files, not the tree's, which keeps the mount's.
        def deleted(placed, layout) = hidden(placed, layout, &:deleted)

        def hidden(placed, layout)
          placed.select(&:in_place?).flat_map do |one|
            yield(one.full_sweep).reject { |path| layout.part_for(path).equal?(one.view.part) }
          end
        end

        # The run's notes on +paths+: none, or one that says what to do.
        def notes(paths)
          return [] if paths.empty?

          ["#{paths.join(', ')}: written where a mount's path hides the folder's own files, so no tool sees " \
           'them and they are not kept as files. Write under another path.']
        end
      end
    end
  end
end
