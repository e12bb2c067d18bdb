# frozen_string_literal: true

require 'monitor'
require_relative 'active_storage/loading'
require_relative 'active_storage/orphans'
require_relative 'active_storage/transaction_hook'
require_relative 'active_storage/chat_lock'
require_relative 'active_storage/rows'
require_relative 'active_storage/pending_blobs'
require_relative 'active_storage/blobs'
require_relative 'active_storage/line_index'
require_relative 'active_storage/streams'
require_relative 'active_storage/intake'
require_relative 'active_storage/streamed_writes'
require_relative 'active_storage/row_memory'
require_relative 'active_storage/search_texts'
require_relative 'active_storage/batch_checks'
require_relative 'active_storage/batch_rows'
require_relative 'active_storage/batch_fallback'
require_relative 'active_storage/batch_write'
require_relative 'active_storage/moves'
require_relative 'active_storage/version_limits'
require_relative 'active_storage/version_log'
require_relative 'active_storage/versions'

module RubyLLM
  class FileStore
    # A persisted chat's files in Active Storage, on whatever service the
    # application uses: one row per file in ruby_llm_chat_files (run
    # `bin/rails generate ruby_llm:file_store:install`), the chat including
    # RubyLLM::ActiveRecord::HasChatFiles (acts_as_chat does, with ruby_llm).
    #
    #   store = RubyLLM::FileStore::ActiveStorage.new(chat)
    #   store.write('notes/plan.md', "# Plan\n")
    #   store.keep_blob('contract.pdf', message.attachments.first.blob) # shares the blob, no copy
    #
    # The row keeps the text a converter made of the file (+text+; a text
    # file's own text too, so search and read need no download) and the
    # digest of what the model last read (+read_digest+), so a reload,
    # another process or the next job still knows both. Encrypt the text with
    # `RubyLLM::ActiveRecord::ChatFile.encrypts :text` (Rails 7+) where your
    # application encrypts what the model reads.
    #
    # With an +owner+, the store writes files for that owner and sees only
    # theirs and the files without an owner, theirs first where both have a
    # path; delete removes the owner's own file, and refuses a shared one.
    # What the model read is kept per view: in the owner's own rows, and
    # for a shared file in this store object. Without an owner, it sees only
    # the files without an owner.
    #
    # with_lock locks the chat's row: SELECT ... FOR UPDATE on PostgreSQL;
    # on SQLite, a write to the row, which takes the database's write lock
    # (see ChatLock). On SQLite before Rails 8, a thread waiting for the
    # database in your own code holds Ruby's global lock, so the thread with
    # the chat's lock cannot finish and the wait ends in "database is
    # locked": run one thread per process there, or use Rails 8. The store's
    # own waits sleep without holding it. Do not call with_lock inside a
    # transaction that already read from SQLite: SQLite refuses to make it a
    # writer while another one waits.
    class ActiveStorage < FileStore
      extend Loading
      extend Orphans
      include Rows
      include PendingBlobs
      include Blobs
      include Streams
      include StreamedWrites
      include RowMemory
      include SearchTexts
      include BatchChecks
      include BatchRows
      include BatchFallback
      include BatchWrite
      include Moves
      include Versions
      prepend Versions::KeptBlobs

      FULL = "This chat's files are full: delete or overwrite files."

      attr_reader :chat, :owner, :max_bytes

      # +chat+ is a saved record (an acts_as_chat model, or any record with
      # the files); +owner+ a saved record or nil; +max_bytes+ caps the total
      # size of the chat's files. With +read_only+, every change raises
      # RubyLLM::FileStore::ReadOnlyError. With +history+ (true, or
      # { keep:, keep_for: }) every version of every file is kept in
      # ruby_llm_chat_file_versions (see RubyLLM::FileStore#versions).
      def initialize(chat, owner: nil, max_bytes: nil, read_only: false, history: false)
        self.class.load_models!
        super()
        @chat = saved_record(chat, 'chat')
        @owner = owner.nil? ? nil : saved_record(owner, 'owner')
        if max_bytes && !(max_bytes.is_a?(Integer) && max_bytes.positive?)
          raise ArgumentError, "max_bytes must be a positive Integer or nil, not #{max_bytes.inspect}"
        end

        unless [true, false].include?(read_only)
          raise ArgumentError, "read_only must be true or false, not #{read_only.inspect}"
        end

        @max_bytes = max_bytes
        @read_only = read_only
        @lock = Monitor.new
        @lock_depth = 0
        @blob_transactions_outside = 0
        @history_option = history
        use_history(version_log(history))
      end

      # A store on the same chat that writes files for +owner+ (a saved
      # record) and sees theirs and the files without an owner.
      def for_owner(owner)
        self.class.new(@chat, owner:, max_bytes: @max_bytes, read_only: @read_only, history: @history_option)
      end

      # Whether the store was made with read_only: true.
      def read_only? = @read_only

      # The files this store sees inside +folder+, sorted by path: one query, without the text column.
      def list(folder = nil)
        folder = FileStore.folder(folder)
        rows = in_folder(visible_rows, folder).select(*Rows::LIST_COLUMNS).to_a
        preferred(rows).map(&:stored_file).sort_by!(&:path)
      end

      # The file the store sees at +path+ (its owner's first), or nil. See RubyLLM::FileStore#[].
      def [](path)
        row_at(FileStore.path(path))&.stored_file
      end

      # The whole file, in one String, by design: for a big file, page it
      # with read_lines or copy it with each_chunk, which never hold it.
      def read(path)
        # With its text: small next to the download it saves a text file.
        bytes_of(text_row(FileStore.path(path)))
      end

      # +content+ is a String, an IO (a File, a Tempfile, an upload:
      # anything with +read+, read from its start when it rewinds), or an
      # ActiveStorage::Blob (kept as it is, see keep_blob). An IO is read in
      # chunks and handed to Active Storage as it is (spooled to a Tempfile
      # first when it cannot be rewound), so a write of any size holds no
      # copy of the file; its text stays in the row up to TEXT_IN_ROW_MAX.
      def write(path, content, content_type: nil)
        return keep_blob(path, content, content_type:) if content.is_a?(::ActiveStorage::Blob)

        path = FileStore.path(path)
        io, content_type, summary = take_content(path, content, content_type)
        begin
          blob = upload_io(path, io, content_type, summary)
          store_blob(path, blob, summary, content_type, uploaded: true)
        ensure
          summary[:spool]&.close!
        end
      end

      # Keeps +blob+ (an ActiveStorage::Blob already stored, such as a
      # message's attachment) at +path+ without copying it: the file and the
      # attachment share one blob, purged only when neither uses it. Streams
      # the blob once, for its digest.
      def keep_blob(path, blob, content_type: nil)
        path = FileStore.path(path)
        refuse_if_read_only(path) # not a write: ReadOnlyGuard does not see it
        unless blob.is_a?(::ActiveStorage::Blob) && blob.persisted?
          raise ArgumentError, "keep_blob needs a saved ActiveStorage::Blob, not #{blob.inspect}"
        end

        content_type ||= blob.content_type
        store_blob(path, blob, kept_content(blob, content_type), content_type, uploaded: false)
      end

      # Deletes the file this store sees at +path+. A store for an owner
      # deletes only that owner's files, as it writes only theirs: the
      # shared file (without an owner) is refused with ArgumentError.
      def delete(path)
        path = FileStore.path(path)
        with_lock do
          row = row_at(path)
          if row.nil?
            raise ArgumentError, "#{path} is a folder, not a file; use delete_folder" if folder?(path)

            next nil
          end
          raise ArgumentError, FileStore.shared_file_message(path) if shared_row?(row)

          RubyLLM::ActiveRecord::ChatFile.find(row.id).destroy!.stored_file
        end
      end

      # Deletes the files in +folder+ this store may delete: for an owner,
      # theirs (the shared ones stay).
      def delete_folder(folder)
        folder = FileStore.path(folder)
        with_lock { in_folder(own_rows, folder).pluck(:path).sort.filter_map { |path| delete(path) } }
      end

      # Holds the lock on the chat's row, in a transaction; reentrant in the
      # same thread or fiber.
      def with_lock(&block)
        raise ArgumentError, 'with_lock needs a block' unless block

        @lock.synchronize do
          next block.call if @lock_depth.positive?

          @blob_transactions_outside = ::ActiveStorage::Blob.connection.open_transactions # see PendingBlobs
          @lock_depth += 1
          begin
            ChatLock.hold(@chat, &block)
          ensure
            @lock_depth -= 1
          end
        end
      end

      # The chat's row, which every store on the chat locks, in every
      # process: its table and id.
      def lock_key
        "#{ActiveStorage.name}:#{@chat.class.table_name}:#{@chat.id}"
      end

      # A short description: the chat (and the owner) the store is for.
      def inspect
        owner = @owner && " owner: #{@owner.class.name}##{@owner.id}"
        "#<#{self.class.name} chat: #{@chat.class.name}##{@chat.id}#{owner}>"
      end

      private

      def saved_record(record, name)
        return record if record.is_a?(::ActiveRecord::Base) && record.persisted?

        raise ArgumentError, "#{name} must be a saved Active Record record, not #{record.inspect}"
      end
    end
  end
end
