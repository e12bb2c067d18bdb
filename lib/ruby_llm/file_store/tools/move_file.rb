# frozen_string_literal: true

module RubyLLM
  class FileStore
    module Tools
      # move_file: moves or renames a file, or a folder with everything in
      # it, with the store's own move (FileStore#move). Nothing is
      # overwritten; no read is needed, since no byte changes, and what the
      # model read moves with the file, so an edit right after works.
      module MoveFile
        TOOL_NAME = 'move_file'
        DESCRIPTION = <<~TEXT.strip
          Moves or renames a file, or a folder with everything in it. new_path must not exist yet: nothing is
          overwritten. Missing folders are created. No read is needed first, and you can edit the file at its new
          path without reading it again.
        TEXT
        PARAMETERS = Behaviour.arguments(
          %w[path new_path],
          path: { type: 'string', description: 'The file or folder to move, like "notes/draft.md".' },
          new_path: { type: 'string', description: 'Where it goes, like "notes/final.md".' }
        )

        # Moves the file or folder at +path+ to +new_path+; what the model sees.
        def execute(path: nil, new_path: nil)
          path = path_argument(path)
          new_path = path_argument(new_path, 'new_path')
          raise FileStore::ReadOnlyError, path if store.read_only?

          moved = begin
            store.move(path, new_path)
          rescue RubyLLM::FileNotFoundError
            raise Refusal, "#{path} does not exist. list_files shows the files and folders there are."
          end
          return "Moved #{path} to #{new_path}." unless moved.is_a?(Array)

          "Moved the folder #{path} to #{new_path} (#{moved.size} #{moved.size == 1 ? 'file' : 'files'})."
        end
      end
    end
  end
end
