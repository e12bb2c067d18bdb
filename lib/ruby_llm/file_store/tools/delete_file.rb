# frozen_string_literal: true

module RubyLLM
  class FileStore
    module Tools
      # delete_file: deletes one file.
      module DeleteFile
        TOOL_NAME = 'delete_file'
        DESCRIPTION = 'Deletes one file from your file store. It cannot be undone. Folders are not deleted this way.'
        PARAMETERS = Behaviour.arguments(
          ['path'], path: { type: 'string', description: 'The file to delete, like "notes/old.md".' }
        )

        # Deletes the file at +path+; what the model sees (a String, or { error: }).
        def execute(path: nil)
          path = path_argument(path)
          deleted = store.with_lock do
            if store[path].nil? && store.list(path).any?
              raise Refusal, "#{path} is a folder; delete_file deletes one file at a time."
            end

            store.delete(path)
          end
          raise Refusal, "#{path} does not exist." unless deleted

          store.record_read(path, nil)
          "Deleted #{path}."
        end
      end
    end
  end
end
