# frozen_string_literal: true

module RubyLLM
  class FileStore
    module Tools
      # list_files: the files, with their type and size, one per line.
      module ListFiles
        TOOL_NAME = 'list_files'
        DESCRIPTION = <<~TEXT.strip
          Lists the files in your file store, one per line with its type and size, sorted by path.
          path narrows to a folder (like "reports"). glob narrows by name: without a slash ("*.md")
          it matches file names in any folder; with one ("reports/**/*.csv") it matches paths, inside
          path when given. ** matches any number of folders, {csv,tsv} either extension.
        TEXT
        PARAMETERS = Behaviour.arguments(
          nil,
          path: { type: 'string', description: 'A folder to list, like "reports". Default: every file.' },
          glob: { type: 'string', description: 'A name pattern, like "*.md" or "reports/**/*.csv".' }
        )

        # The files in +path+ that +glob+ matches, one per line; what the model sees.
        def execute(path: nil, glob: nil)
          folder = FileStore.folder(path)
          listing = store.listing(folder.empty? ? nil : folder)
          files = Tools.glob_filter(listing.files, glob, folder)
          notes = listing.notes.map { |note| "#{note}\n" }.join
          return nothing_found(folder, glob) + (notes.empty? ? '' : "\n#{notes}") if files.empty?

          "#{lines(files, notes.size)}#{notes}"
        end

        private

        # One line per file, leaving room for +room+ characters of notes.
        def lines(files, room)
          Tools.capped_lines(files.map { |f| "#{f.path} (#{f.content_type}, #{f.human_size})" },
                             inline_limit && [inline_limit - room, 200].max, 'files', 'narrow with path or glob')
        end

        def nothing_found(folder, glob)
          where = folder.empty? ? 'the store' : folder
          glob ? "No files in #{where} match #{glob}." : "There are no files in #{where}."
        end
      end
    end
  end
end
