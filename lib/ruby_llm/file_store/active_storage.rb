# frozen_string_literal: true

require 'forwardable'
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
require_relative 'active_storage/upload'
require_relative 'active_storage/row_memory'
require_relative 'active_storage/search_texts'
require_relative 'active_storage/batch_checks'
require_relative 'active_storage/batch_rows'
require_relative 'active_storage/batch_write'
require_relative 'active_storage/version_limits'
require_relative 'active_storage/version_log/writes'
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
    #
    # The store is its parts, each an object with its own state: Rows (the
    # chat's rows it sees and writes), ChatLock, Blobs (uploads, through
    # PendingBlobs), Upload (one write's content), Streams (reads of any
    # size), RowMemory (what the rows remember), SearchTexts, BatchWrite
    # (write_many) and a VersionLog.
    class ActiveStorage < FileStore
      extend Forwardable

      FULL = "This chat's files are full: delete or overwrite files."

      prepend Upload::BeforeLock

      def_delegators :@rows, :chat, :owner, :max_bytes
      # See RubyLLM::FileStore#read_lines: a window of a file of any size, downloading only what it needs.
      def_delegators :@streams, :read_lines
      # The text a converter made, kept in the file's row for its version (see RubyLLM::FileStore#cached_text).
      def_delegators :@memory, :cached_text, :cache_text

      # Loads the model and the concern; raises RubyLLM::ConfigurationError
      # saying what is missing (see Loading).
      def self.load_models! = Loading.load!

      # What the store needs and is not loaded, like ["Active Storage"].
      def self.missing_parts = Loading.missing_parts

      # Purges the blobs the store uploaded that nothing uses, older than
      # +older_than+ seconds; returns how many (see Orphans).
      def self.purge_orphans(older_than: Orphans::GRACE) = Orphans.purge(older_than)

      # +chat+ is a saved record (an acts_as_chat model, or any record with
      # the files); +owner+ a saved record or nil; +max_bytes+ caps the total
      # size of the chat's files. With +read_only+, every change raises
      # RubyLLM::FileStore::ReadOnlyError. With +history+ (true, or
      # { keep:, keep_for: }) every version of every file is kept in
      # ruby_llm_chat_file_versions (see RubyLLM::FileStore#versions).
      def initialize(chat, owner: nil, max_bytes: nil, read_only: false, history: false)
        self.class.load_models!
        super()
        chat = saved_record(chat, 'chat')
        FileStore.max_bytes_option(max_bytes)
        @read_only = FileStore.read_only_option(read_only)
        @history_option = history
        @rows = Rows.new(chat, owner.nil? ? nil : saved_record(owner, 'owner'), max_bytes)
        @lock = ChatLock.new(chat)
        @blobs = Blobs.new(@lock)
        @streams = Streams.new(@rows, @blobs)
        @memory = RowMemory.new(@rows, read_only)
        use_history(Versions.log(chat, history))
      end

      # A store on the same chat that writes files for +owner+ (a saved
      # record) and sees theirs and the files without an owner.
      def for_owner(owner)
        self.class.new(chat, owner:, max_bytes:, read_only: @read_only, history: @history_option)
      end

      # Whether the store was made with read_only: true.
      def read_only? = @read_only

      # The files this store sees inside +folder+, sorted by path: one query, without the text column.
      def list(folder = nil)
        rows = @rows.in_folder(@rows.visible, FileStore.folder(folder)).select(*Rows::LIST_COLUMNS).to_a
        @rows.preferred(rows).map(&:stored_file).sort_by!(&:path)
      end

      # The file the store sees at +path+ (its owner's first), or nil. See RubyLLM::FileStore#[].
      def [](path)
        @rows.at(FileStore.path(path))&.stored_file
      end

      # The whole file, in one String, by design: for a big file, page it
      # with read_lines or copy it with each_chunk, which never hold it.
      def read(path)
        # With its text: small next to the download it saves a text file.
        @blobs.bytes(@rows.with_text(FileStore.path(path)))
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
        # An Upload comes uploaded already, from Upload::BeforeLock.
        upload = content.is_a?(Upload) ? content : Upload.new(path, content, content_type)
        upload.upload(@blobs) unless upload.blob
        store_blob(path, upload.blob, upload.summary, upload.content_type, uploaded: true)
      ensure
        upload&.close
      end

      # Keeps +blob+ (an ActiveStorage::Blob already stored, such as a
      # message's attachment) at +path+ without copying it: the file and the
      # attachment share one blob, purged only when neither uses it. Streams
      # the blob once, for its digest. A change of the history, as a write.
      def keep_blob(path, blob, content_type: nil)
        path = FileStore.path(path)
        refuse_if_read_only(path) # not a write: ReadOnlyGuard does not see it
        unless blob.is_a?(::ActiveStorage::Blob) && blob.persisted?
          raise ArgumentError, "keep_blob needs a saved ActiveStorage::Blob, not #{blob.inspect}"
        end

        content_type ||= blob.content_type
        content = Upload.kept(@blobs, blob, content_type) # streamed before the lock, with history too
        keep = -> { store_blob(path, blob, content, content_type, uploaded: false) }
        history_recording? ? history_change([path], &keep) : keep.call
      end

      # Deletes the file this store sees at +path+. A store for an owner
      # deletes only that owner's files, as it writes only theirs: the
      # shared file (without an owner) is refused with ArgumentError.
      def delete(path)
        path = FileStore.path(path)
        with_lock do
          row = @rows.at(path)
          if row.nil?
            raise ArgumentError, "#{path} is a folder, not a file; use delete_folder" if @rows.folder?(path)

            next nil
          end
          raise ArgumentError, FileStore.shared_file_message(path) if @rows.shared?(row)

          RubyLLM::ActiveRecord::ChatFile.find(row.id).destroy!.stored_file
        end
      end

      # Deletes the files in +folder+ this store may delete: for an owner,
      # theirs (the shared ones stay).
      def delete_folder(folder)
        folder = FileStore.path(folder)
        with_lock { @rows.in_folder(@rows.own, folder).pluck(:path).sort.filter_map { |path| delete(path) } }
      end

      # Yields the bytes of the file at +path+ in chunks (Strings), in
      # order: its row's text when that is the file, else its blob
      # downloaded in parts, so a file of any size copies in bounded
      # memory. Each chunk is emptied when the block returns, as
      # IO#read's buffer is overwritten: copy what you keep (+chunk.dup+).
      # Returns nil; an Enumerator without a block (whose chunks are
      # emptied the same way: use it to copy, not to collect).
      def each_chunk(path, &block)
        return enum_for(:each_chunk, path) unless block

        @streams.each_chunk(FileStore.path(path), &block)
      end

      # See FileStore#write_many: in batches, each in one transaction (see BatchWrite).
      def write_many(paths, deadline: nil, &content)
        BatchWrite.new(self, @rows, @blobs).write_many(paths, deadline:, &content)
      end

      # Holds the lock on the chat's row, in a transaction; reentrant in the
      # same thread or fiber.
      def with_lock(&block)
        raise ArgumentError, 'with_lock needs a block' unless block

        @lock.hold(&block)
      end

      # The chat's row, which every store on the chat locks, in every
      # process: its table and id.
      def lock_key
        "#{ActiveStorage.name}:#{chat.class.table_name}:#{chat.id}"
      end

      # Whether this store has an owner and the file at +path+ is the
      # shared one (see FileStore#shared_file?).
      def shared_file?(path)
        owner ? @rows.shared?(@rows.at(FileStore.path(path))) : false
      end

      # A short description: the chat (and the owner) the store is for.
      def inspect
        owner = self.owner && " owner: #{self.owner.class.name}##{self.owner.id}"
        "#<#{self.class.name} chat: #{chat.class.name}##{chat.id}#{owner}>"
      end

      # What the model read, converted texts and kept attachments, in the
      # file's row where there is one of the store's (see RowMemory), else
      # in the store's memory.

      # The path the chat kept the attachment with +key+ at. See RubyLLM::FileStore#attachment_path.
      def attachment_path(key) = @memory.attachment_path(key) || super

      # Remembers that the attachment with +key+ was kept at +path+. See
      # RubyLLM::FileStore#remember_attachment.
      def remember_attachment(key, path)
        path = FileStore.path(path)
        @memory.remember_attachment(key, path) ? path : super
      end

      # The digest of what the model last read at +path+. See RubyLLM::FileStore#read_digest.
      def read_digest(path)
        row = @memory.reads_row(FileStore.path(path), :read_digest)
        row ? row.read_digest : super
      end

      # Keeps the digest the model read. See RubyLLM::FileStore#record_read.
      def record_read(path, digest)
        path = FileStore.path(path)
        @memory.record_read(path, digest) ? super(path, nil) : super
      end

      # Forgets what the model read of +paths+: one statement for the rows.
      def forget_reads(paths)
        paths = paths.map { |path| FileStore.path(path) }
        @memory.forget_reads(paths)
        forget_reads_in_memory(paths)
      end

      # [path, content] for search_files, a part at a time (see SearchTexts).
      def texts_for_search(files, stop: nil) # rubocop:disable Lint/UnusedMethodArgument
        SearchTexts.new(@rows, @blobs).texts(files)
      end

      # Bytes of the files searched per part (see SearchTexts::SEARCH_PART_BYTES).
      def search_part_bytes = SearchTexts::SEARCH_PART_BYTES

      private

      def saved_record(record, name)
        return record if record.is_a?(::ActiveRecord::Base) && record.persisted?

        raise ArgumentError, "#{name} must be a saved Active Record record, not #{record.inspect}"
      end

      # Saves the row at +path+ with +blob+ attached, under the chat's lock,
      # in a savepoint; +uploaded+ says whether the store uploaded the blob
      # (and so deletes it when the row is not saved: at the rollback, and
      # again outside the lock's transaction, where a row deleted inside it
      # on SQLite came back). +content+ is what the row keeps of it:
      # { digest:, byte_size:, text: }. The blob the row no longer uses is
      # purged after the commit.
      def store_blob(path, blob, content, content_type, uploaded:)
        digest, byte_size, text = content.values_at(:digest, :byte_size, :text)
        with_lock do
          RubyLLM::ActiveRecord::ChatFile.transaction(requires_new: true) do
            @rows.check_place(path)
            @rows.check_room(path, byte_size)
            row, replaced = @rows.save(path, blob, { content_type:, byte_size:, digest:, text: })
            purge = -> { RubyLLM::ActiveRecord::ChatFile.purge_unless_attached(replaced) } if replaced
            discard = -> { @blobs.discard(blob) } if uploaded
            TransactionHook.add(RubyLLM::ActiveRecord::ChatFile.connection, on_commit: purge, on_rollback: discard)
            row.stored_file
          end
        end
      rescue Exception # rubocop:disable Lint/RescueException -- an interrupt mid-write must not leave a blob
        @blobs.discard(blob) if uploaded
        raise
      end

      # FileStore#move's step (see CopyMove): the rows' paths (and
      # path_digest) change in one transaction under the chat's lock; no
      # blob is uploaded or downloaded. The rows keep their text, read
      # digest and attachment key, so what the model read moves with them.
      def move_entries(path, new_path, moves)
        # A folder's rows in one query by its prefix, not by a list of paths.
        folder = moves.first[:file].path != path
        scope = folder ? @rows.in_folder(@rows.visible, path) : @rows.at_paths(@rows.visible, path)
        rows = @rows.preferred(scope.select(*Rows::LIST_COLUMNS).to_a).index_by(&:path)
        moves.map { |move| @rows.move(rows.fetch(move[:file].path), move[:to], move[:content_type]) }
      rescue ::ActiveRecord::RecordNotUnique
        raise RubyLLM::FileExistsError, new_path
      end

      # An owner's view sees its own versions.
      def history_owner = owner && [owner.class.polymorphic_name, owner.id]

      # A version holds the blob the file has: nothing is copied or sent.
      def history_keep_bytes(_log, path, _file, _written = nil) = Versions.blob_id(@rows, path)

      # The blobs of all the files a change's versions hold, in one query.
      def history_hold_all(log, files, written = nil)
        files.size < 2 ? super : Versions.blob_ids(@rows, files.map(&:first))
      end

      # The files at +paths+ in one query (a staged run's copy-back, a
      # folder's move), not one each.
      def history_files(paths)
        return super if paths.size < 2

        rows = @rows.preferred(@rows.at_paths(@rows.visible, paths).select(*Rows::LIST_COLUMNS).to_a)
        found = rows.to_h { |row| [row.path, row.stored_file] }
        paths.to_h { |path| [path, found[path]] }
      end
    end
  end
end
