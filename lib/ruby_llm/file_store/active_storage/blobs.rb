# frozen_string_literal: true

require 'stringio'

module RubyLLM
  class FileStore
    class ActiveStorage < FileStore
      # How the store puts bytes in Active Storage. A write commits its
      # blob's row (marked as this store's, see PendingBlobs), uploads the
      # file, then takes the chat's lock and saves the file's row and attaches
      # the blob inside, in a savepoint: no reader sees a row whose file is
      # not there yet, a write that fails, or whose transaction rolls back
      # later, deletes what it uploaded, and one killed on the way leaves a
      # blob that purge_orphans finds. A blob that a file no longer uses is
      # purged after the commit, unless another attachment still uses it.
      # Included by the store; private.
      module Blobs
        # A text file up to this size keeps its text in its row too, so
        # search and read need no download.
        TEXT_IN_ROW_MAX = 8 * 1024 * 1024

        # The metadata key that marks the blobs this store uploaded, so
        # purge_orphans never touches a blob of the app's own.
        MARK = 'ruby_llm_file_store'

        private

        # A blob with +bytes+, saved (see PendingBlobs) and uploaded.
        def upload(path, bytes, content_type)
          upload_all([[path, bytes, content_type]]).first
        end

        # Blobs for [[path, bytes, content_type]...]: their rows saved first,
        # in one statement (see PendingBlobs), then their files uploaded.
        # Unfurl and upload_without_unfurling are the two halves of
        # ActiveStorage::Blob#upload (create_and_upload! calls them so).
        # After +deadline+ (a Process::CLOCK_MONOTONIC time) no upload is
        # started: the blobs of the entries before it are returned, the
        # others' rows deleted (their files were never sent).
        def upload_all(entries, deadline: nil)
          sent = []
          ios = entries.map { |_path, bytes, _content_type| StringIO.new(bytes) }
          blobs = entries.zip(ios).map do |(path, _bytes, content_type), io|
            new_blob(path, content_type).tap { |blob| blob.unfurl(io, identify: false) }
          end
          saved = save_pending(blobs)
          send_files(saved, ios, sent, deadline)
          forget_unsent(saved.drop(sent.size))
          sent
        rescue Exception # rubocop:disable Lint/RescueException -- an interrupt mid-upload must not leave a blob
          sent.each { |blob| discard(blob) }
          forget_unsent(saved.drop(sent.size)) if saved
          raise
        end

        # A blob with what +io+ holds (from where it is, to its end: the
        # +content+ a Streams summary describes, with its size and checksum,
        # so Active Storage reads it only to upload it), its row saved first
        # (see PendingBlobs), then uploaded. Keeps the line index in its metadata (see Streams).
        def upload_io(path, io, content_type, content)
          blob = new_blob(path, content_type, line_index: content[:line_index])
          blob.assign_attributes(checksum: content.fetch(:checksum), byte_size: content.fetch(:byte_size))
          saved = save_pending([blob]).first
          saved.upload_without_unfurling(io)
          saved
        rescue Exception # rubocop:disable Lint/RescueException -- an interrupt mid-upload must not leave a blob
          discard(saved) if saved
          raise
        end

        def new_blob(path, content_type, line_index: nil)
          metadata = { identified: true, analyzed: true, MARK => true }
          blob = ::ActiveStorage::Blob.new(filename: File.basename(path), content_type:, metadata:)
          signed = line_index && LineIndex.signed(blob.key, line_index)
          blob.metadata[Streams::LINE_INDEX] = signed if signed
          blob
        end

        # Saves the row at +path+ with +blob+ attached; +uploaded+ says
        # whether the store uploaded the blob (and so may delete it).
        # +content+ is what the row keeps of it: { digest:, byte_size:, text: }.
        def store_blob(path, blob, content, content_type, uploaded:)
          digest, byte_size, text = content.values_at(:digest, :byte_size, :text)
          with_lock do
            RubyLLM::ActiveRecord::ChatFile.transaction(requires_new: true) do
              check_place(path)
              check_room(path, byte_size)
              save_row(path, blob, content_type:, byte_size:, digest:, text:, uploaded:)
            end
          end
        rescue Exception # rubocop:disable Lint/RescueException -- an interrupt mid-write must not leave a blob
          discard(blob) if uploaded
          raise
        end

        def save_row(path, blob, uploaded:, **columns)
          blob.save! if blob.new_record?
          row = at_paths(own_rows, path).first || RubyLLM::ActiveRecord::ChatFile.new(chat: @chat, owner: @owner, path:)
          old_blob = row.new_record? ? nil : row.file_attachment&.blob
          row.update!(columns)
          attach(row, blob)
          replaced = old_blob if old_blob && old_blob != blob
          purge = -> { RubyLLM::ActiveRecord::ChatFile.purge_unless_attached(replaced) } if replaced
          after_transaction(on_commit: purge, on_rollback: (-> { discard(blob) } if uploaded))
          row.stored_file
        end

        def attach(row, blob)
          attachment = row.file_attachment
          if attachment.nil?
            row.create_file_attachment!(blob:)
          elsif attachment.blob_id != blob.id
            attachment.update!(blob:)
          end
        end

        def after_transaction(on_commit:, on_rollback:)
          return unless on_commit || on_rollback

          TransactionHook.add(RubyLLM::ActiveRecord::ChatFile.connection, on_commit:, on_rollback:)
        end

        # Deletes an uploaded blob that no file kept: its file on the
        # service, and its row when one is left that nothing is attached to.
        def discard(blob)
          blob.service.delete(blob.key)
          delete_unattached([blob.id]) if blob.id
        rescue StandardError => e
          ::ActiveRecord::Base.logger&.error('RubyLLM::FileStore::ActiveStorage could not delete blob ' \
                                             "#{blob.key}: #{e.class}: #{e.message}")
        end

        # The text a text file keeps in its row: its bytes, when they are the
        # text exactly (UTF-8, no BOM, no NUL, which PostgreSQL refuses).
        def row_text(content_type, bytes)
          return nil unless bytes.bytesize <= TEXT_IN_ROW_MAX && FileStores::Native.text_content_type?(content_type)

          text = bytes.dup.force_encoding(Encoding::UTF_8)
          return nil unless text.valid_encoding? && !text.start_with?("\uFEFF") && !text.include?("\0")

          text
        end

        # The bytes of +row+ (loaded with its text): from its text when that
        # is the file exactly (its digest says so), else downloaded whole.
        def bytes_of(row)
          exact_text(row) || blob_of(row).download.b
        end
      end
    end
  end
end
