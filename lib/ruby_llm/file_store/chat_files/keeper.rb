# frozen_string_literal: true

module RubyLLM
  class FileStore
    class ChatFiles
      # Keeps files in a store without writing over a different one: a
      # second "report.pdf" with other bytes becomes "report-2.pdf", and
      # the same bytes kept twice are kept once.
      #
      #   keeper = Keeper.new(store)
      #   file, written = keeper.keep('report.pdf', bytes, content_type: 'application/pdf')
      #
      # Given the Active Storage blob that holds the bytes, a store that
      # answers keep_blob keeps that blob instead of a copy of it.
      class Keeper # :nodoc:
        MAX_TRIES = 10_000

        attr_reader :store

        def initialize(store)
          @store = store
        end

        # Keeps +bytes+ at +path+, or at the first numbered path free of a
        # different file. Returns the StoredFile and whether it was
        # written (false when the same bytes were there already). Raises
        # RubyLLM::FileStoreFullError when the store is full. +blob+, a
        # saved blob holding +bytes+, is kept as it is by a store with
        # keep_blob.
        def keep(path, bytes, content_type: nil, blob: nil)
          path = RubyLLM::FileStore.path(path)
          blob = nil unless blob.respond_to?(:persisted?) && blob.persisted? # else keep_blob refuses every name
          digest = FileStores::Native.sha256_hex(bytes)
          # No return out of the block: in a store whose lock is a database
          # transaction (Active Storage), Rails 7.0 rolls back a block left
          # by return, and 6.1 warns.
          kept = store.with_lock { first_fit(path, bytes, digest, content_type, blob) }
          kept || raise(ArgumentError, "no free name for #{path} in #{MAX_TRIES} tries")
        end

        # Keeps a chat's attachment named +name+ (see safe_name): at the
        # path the store remembers for it (attachment_path) when that file
        # is still there, even changed since; otherwise as keep does, and
        # the store remembers the path. Returns the attachment as kept (the
        # file at that path with the attachment's size and digest) and
        # whether it was written. So a chat loaded again, in another
        # process too, shows its attachments in the same lines the model saw.
        def keep_attachment(name, bytes, content_type: nil, blob: nil)
          digest = FileStores::Native.sha256_hex(bytes)
          key = Keeper.attachment_key(name, digest)
          # Without the lock first: a chat loaded again (ruby_llm 1.16's
          # records, on every question) finds its attachments kept.
          known = known_attachment(key, bytes, digest)
          return [known, false] if known

          store.with_lock do
            known = known_attachment(key, bytes, digest)
            next [known, false] if known

            file, written = keep(name, bytes, content_type:, blob:)
            store.remember_attachment(key, file.path)
            [file, written]
          end
        end

        # What identifies an attachment in a store: its name and the digest
        # of its bytes, as 64 hex characters.
        def self.attachment_key(name, digest)
          FileStores::Native.sha256_hex("#{name.b}\0#{digest}")
        end

        # A file name that a store accepts, from an attachment's name (see
        # Names.kept), with room left for the number a second file of the
        # same name gets.
        def self.safe_name(filename)
          Names.kept(filename, max_bytes: Names::MAX_BYTES - "-#{MAX_TRIES}".bytesize)
        end

        private

        # The attachment with +key+ as it was kept, when the store remembers
        # a file for it that is still there; nil otherwise.
        def known_attachment(key, bytes, digest)
          path = store.attachment_path(key)
          file = path && store[path]
          file && as_kept(file, bytes, digest)
        end

        # +file+ as it was when +bytes+ were kept there.
        def as_kept(file, bytes, digest)
          return file if file.digest == digest

          RubyLLM::StoredFile.new(path: file.path, byte_size: bytes.bytesize, content_type: file.content_type,
                                  digest:, updated_at: file.updated_at)
        end

        # [file, written] at the first candidate path free of a different
        # file, or nil.
        def first_fit(path, bytes, digest, content_type, blob)
          candidates(path).each do |candidate|
            existing = store[candidate]
            next if existing && digest_of(existing) != digest
            return [existing, false] if existing

            written = write(candidate, bytes, content_type, blob)
            return [written, true] if written
          end
          nil
        end

        # "report.pdf", then "report-2.pdf", "report-3.pdf", ...
        def candidates(path)
          folder, name = File.split(path)
          Enumerator.new do |out|
            out << path
            (2..MAX_TRIES).each do |n|
              numbered = Names.numbered(name, n)
              out << (folder == '.' ? numbered : "#{folder}/#{numbered}")
            end
          end
        end

        def digest_of(file)
          file.digest || FileStores::Native.sha256_hex(store.read(file.path))
        end

        # Writes, or nil when a folder has the name (try the next one).
        # Any other refusal is raised: it would refuse every name alike.
        def write(path, bytes, content_type, blob = nil)
          FileStores::Native::History.acting(:attachment) do
            next store.write(path, bytes, content_type:) unless blob && store.respond_to?(:keep_blob)

            keep_blob(path, bytes, content_type, blob)
          end
        rescue ArgumentError
          raise unless folder_named?(path)

          nil
        end

        # Whether a folder has the name +path+ (files lie inside it, or, in
        # Mounts, a store is mounted there), which is why every store's
        # write refuses a file there.
        def folder_named?(path)
          prefix = "#{path}/"
          mounted = store.respond_to?(:mounts) && store.mounts.each_key.any? do |name|
            name == path || name.start_with?(prefix)
          end
          mounted || store.list(path).any? { |file| file.path.start_with?(prefix) }
        rescue RubyLLM::FileNotFoundError, ArgumentError
          false
        end

        # The blob kept as it is; its bytes written as a file of their own
        # when the blob's file is not on its service yet.
        def keep_blob(path, bytes, content_type, blob)
          store.keep_blob(path, blob, content_type:)
        rescue StandardError => e
          raise unless AttachmentBlobs.missing_file?(e)

          store.write(path, bytes, content_type:)
        end
      end
    end
  end
end
