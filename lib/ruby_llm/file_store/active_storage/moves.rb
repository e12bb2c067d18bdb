# frozen_string_literal: true

module RubyLLM
  class FileStore
    class ActiveStorage < FileStore
      # FileStore#move for the Active Storage store: the rows' paths (and
      # path_digest) change in one transaction under the chat's lock; no
      # blob is uploaded or downloaded. The rows keep their text, read
      # digest and attachment key, so what the model read moves with them.
      # A store for an owner moves only that owner's files (a shared one is
      # refused, as delete refuses it). Included by the store.
      module Moves
        # See FileStore#move.
        def move(path, new_path)
          path, new_path = FileStores::Native::CopyMove.paths(path, new_path)
          refuse_if_read_only(path)
          with_lock do
            row = row_at(path)
            rows = row ? [row] : preferred(in_folder(visible_rows, path).select(*Rows::LIST_COLUMNS).to_a)
            raise RubyLLM::FileNotFoundError, "#{path} does not exist" if rows.empty?

            check_move(rows, new_path)
            moved = rows.sort_by(&:path).map { |source| move_row(source, path, new_path) }
            row ? moved.first : moved
          end
        rescue ::ActiveRecord::RecordNotUnique
          raise RubyLLM::FileExistsError, new_path
        end

        private

        # Refuses the move when something is at +new_path+ or a file is on
        # the way to it, or a row is shared and this store has an owner.
        def check_move(rows, new_path)
          raise RubyLLM::FileExistsError, new_path if row_at(new_path) || folder?(new_path)

          check_place(new_path)
          shared = rows.find { |row| @owner && row.owner_id.nil? }
          raise ArgumentError, FileStore.shared_file_message(shared.path) if shared
        end

        # Gives the row of +source+ its new path: one UPDATE, the blob untouched.
        def move_row(source, path, new_path)
          target = FileStores::Native::CopyMove.new_path_of(source.path, path, new_path)
          content_type = FileStores::Native::CopyMove.moved_content_type(source.content_type, source.path, target)
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
