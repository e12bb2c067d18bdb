# frozen_string_literal: true

module RubyLLM
  class FileStore
    class ActiveStorage < FileStore
      # A store's view of ruby_llm_chat_files: the chat's rows, which of them
      # the store sees (its owner's and those without an owner, the owner's
      # first where both have a path) and writes (its owner's), and the
      # folder and room rules a write checks.
      class Rows # :nodoc:
        # Every column but +text+, which can be large.
        LIST_COLUMNS = %i[id path owner_type owner_id content_type byte_size digest updated_at].freeze

        attr_reader :chat, :owner, :max_bytes

        def initialize(chat, owner, max_bytes)
          @chat = chat
          @owner = owner
          @max_bytes = max_bytes
        end

        def model = RubyLLM::ActiveRecord::ChatFile

        def chat_rows = model.where(chat_type: @chat.class.polymorphic_name, chat_id: @chat.id)

        # The rows this store sees.
        def visible
          ownerless = chat_rows.where(owner_type: nil, owner_id: nil)
          @owner ? ownerless.or(owner_rows) : ownerless
        end

        # The rows this store writes.
        def own = @owner ? owner_rows : chat_rows.where(owner_type: nil, owner_id: nil)

        # One row per path: the owner's where both have it.
        def preferred(rows)
          rows.group_by(&:path).map { |_path, same| same.find(&:owner_id) || same.first }
        end

        # The row the store sees at +path+, or nil.
        def at(path, columns = LIST_COLUMNS)
          preferred(at_paths(visible, path).select(*columns).to_a).first
        end

        # The row at +path+ with its text; raises RubyLLM::FileNotFoundError.
        def with_text(path)
          at(path, [*LIST_COLUMNS, :text]) || raise(RubyLLM::FileNotFoundError, "#{path} does not exist")
        end

        # +rows+ at +paths+ (one or many): by path_digest, which the unique
        # index holds, where the table has it, and by the path itself, so a
        # digest never stands for another path.
        def at_paths(rows, paths)
          rows = rows.where(path: paths)
          return rows unless model.path_digests?

          rows.where(path_digest: Array(paths).map { |path| model.path_digest(path) })
        end

        def in_folder(rows, folder)
          return rows if folder.empty?

          prefix = "#{folder}/"
          rows.where('SUBSTR(path, 1, ?) = ?', prefix.length, prefix)
        end

        def folder?(path) = in_folder(visible, path).exists?

        # Whether +row+ (or nil) is the shared one while the store has an owner.
        def shared?(row) = !@owner.nil? && !row.nil? && row.owner_id.nil?

        # Whether +row+ keeps this store's reads: its owner's, or a shared
        # one for the store without an owner.
        def own?(row) = !row.nil? && (@owner.nil? || !row.owner_id.nil?)

        # Refuses a file where a folder is, or inside a file.
        def check_place(path)
          raise ArgumentError, "#{path} is a folder, not a file" if folder?(path)

          parents = Rows.parents_of(path)
          return if parents.empty? || !at_paths(visible, parents).exists?

          raise ArgumentError, "#{path} goes through a file as if it were a folder"
        end

        def check_room(path, byte_size)
          return unless @max_bytes

          replaced = at_paths(own, path).pick(:byte_size) || 0
          needed = chat_rows.sum(:byte_size) - replaced + byte_size
          raise RubyLLM::FileStoreFullError, full_message(path, needed) if needed > @max_bytes
        end

        def full_message(path, needed)
          "#{FULL} Writing #{path} needs #{needed} bytes in all, and the limit is #{@max_bytes}."
        end

        # The folders +path+ is in, outermost first.
        def self.parents_of(path)
          parts = path.split('/')
          (1...parts.size).map { |n| parts.first(n).join('/') }
        end

        # Saves the store's row at +path+ with +blob+ attached (the blob saved
        # first when new) and the file's +columns+; returns [the row, the blob
        # it no longer uses or nil].
        def save(path, blob, columns)
          blob.save! if blob.new_record?
          row = at_paths(own, path).first || model.new(chat: @chat, owner: @owner, path:)
          old_blob = row.new_record? ? nil : row.file_attachment&.blob
          row.update!(columns)
          attach(row, blob)
          [row, (old_blob if old_blob && old_blob != blob)]
        end

        # Gives the row of +source+ its new path: one UPDATE, the blob untouched.
        def move(source, target, content_type)
          changes = { path: target, content_type: }
          changes[:path_digest] = model.path_digest(target) if model.path_digests?
          model.where(id: source.id).update_all(changes)
          StoredFile.new(path: target, byte_size: source.byte_size, content_type:, digest: source.digest,
                         updated_at: source.updated_at)
        end

        private

        def owner_rows = chat_rows.where(owner_type: @owner.class.polymorphic_name, owner_id: @owner.id)

        def attach(row, blob)
          attachment = row.file_attachment
          if attachment.nil?
            row.create_file_attachment!(blob:)
          elsif attachment.blob_id != blob.id
            attachment.update!(blob:)
          end
        end
      end
    end
  end
end
