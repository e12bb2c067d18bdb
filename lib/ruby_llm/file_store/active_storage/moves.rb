# frozen_string_literal: true

module RubyLLM
  class FileStore
    class ActiveStorage < FileStore
      # FileStore#move's step for the Active Storage store (see CopyMove):
      # the rows' paths (and path_digest) change in one transaction under
      # the chat's lock; no blob is uploaded or downloaded. The rows keep
      # their text, read digest and attachment key, so what the model read
      # moves with them. Included by the store.
      module Moves
        # Whether this store has an owner and the file at +path+ is the
        # shared one (see FileStore#shared_file?).
        def shared_file?(path)
          @owner ? shared_row?(row_at(FileStore.path(path))) : false
        end

        private

        # Whether +row+ (or nil) is shared while this store has an owner.
        def shared_row?(row) = !@owner.nil? && !row.nil? && row.owner_id.nil?

        def move_entries(path, new_path, moves)
          # A folder's rows in one query by its prefix, not by a list of paths.
          folder = moves.first[:file].path != path
          scope = folder ? in_folder(visible_rows, path) : at_paths(visible_rows, path)
          rows = preferred(scope.select(*Rows::LIST_COLUMNS).to_a).index_by(&:path)
          moves.map { |move| move_row(rows.fetch(move[:file].path), move[:to], move[:content_type]) }
        rescue ::ActiveRecord::RecordNotUnique
          raise RubyLLM::FileExistsError, new_path
        end

        # Gives the row of +source+ its new path: one UPDATE, the blob untouched.
        def move_row(source, target, content_type)
          changes = { path: target, content_type: }
          if RubyLLM::ActiveRecord::ChatFile.path_digests?
            changes[:path_digest] = RubyLLM::ActiveRecord::ChatFile.path_digest(target)
          end
          RubyLLM::ActiveRecord::ChatFile.where(id: source.id).update_all(changes)
          StoredFile.new(path: target, byte_size: source.byte_size, content_type:, digest: source.digest,
                         updated_at: source.updated_at)
        end
      end
    end
  end
end
