# frozen_string_literal: true

module RubyLLM
  class FileStore
    class ActiveStorage < FileStore
      # The store's queries over ruby_llm_chat_files: which rows it sees (its
      # owner's and those without an owner, the owner's first where both have
      # a path) and the folder rules. Included by the store; private.
      module Rows
        # Every column but +text+, which can be large.
        LIST_COLUMNS = %i[id path owner_type owner_id content_type byte_size digest updated_at].freeze

        private

        def chat_rows
          RubyLLM::ActiveRecord::ChatFile.where(chat_type: @chat.class.polymorphic_name, chat_id: @chat.id)
        end

        # The rows this store sees.
        def visible_rows
          ownerless = chat_rows.where(owner_type: nil, owner_id: nil)
          return ownerless unless @owner

          ownerless.or(chat_rows.where(owner_type: @owner.class.polymorphic_name, owner_id: @owner.id))
        end

        # The rows this store writes.
        def own_rows
          return chat_rows.where(owner_type: nil, owner_id: nil) unless @owner

          chat_rows.where(owner_type: @owner.class.polymorphic_name, owner_id: @owner.id)
        end

        # One row per path: the owner's where both have it.
        def preferred(rows)
          rows.group_by(&:path).map { |_path, same| same.find(&:owner_id) || same.first }
        end

        # The row the store sees at +path+, or nil.
        def row_at(path, columns = LIST_COLUMNS)
          preferred(at_paths(visible_rows, path).select(*columns).to_a).first
        end

        # +rows+ at +paths+ (one or many): by path_digest, which the unique
        # index holds, where the table has it, and by the path itself, so a
        # digest never stands for another path.
        def at_paths(rows, paths)
          rows = rows.where(path: paths)
          return rows unless RubyLLM::ActiveRecord::ChatFile.path_digests?

          digests = Array(paths).map { |path| RubyLLM::ActiveRecord::ChatFile.path_digest(path) }
          rows.where(path_digest: digests)
        end

        def in_folder(rows, folder)
          return rows if folder.empty?

          prefix = "#{folder}/"
          rows.where('SUBSTR(path, 1, ?) = ?', prefix.length, prefix)
        end

        def folder?(path)
          in_folder(visible_rows, path).exists?
        end

        # Refuses a file where a folder is, or inside a file.
        def check_place(path)
          raise ArgumentError, "#{path} is a folder, not a file" if folder?(path)

          parts = path.split('/')
          parents = (1...parts.size).map { |n| parts.first(n).join('/') }
          return if parents.empty? || !at_paths(visible_rows, parents).exists?

          raise ArgumentError, "#{path} goes through a file as if it were a folder"
        end

        def check_room(path, byte_size)
          return unless @max_bytes

          replaced = at_paths(own_rows, path).pick(:byte_size) || 0
          needed = chat_rows.sum(:byte_size) - replaced + byte_size
          return if needed <= @max_bytes

          raise RubyLLM::FileStoreFullError,
                "#{FULL} Writing #{path} needs #{needed} bytes in all, and the limit is #{@max_bytes}."
        end
      end
    end
  end
end
