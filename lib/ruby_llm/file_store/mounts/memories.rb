# frozen_string_literal: true

module RubyLLM
  class FileStore
    class Mounts < FileStore
      # What a tree of stores remembers, each in the store that holds the
      # file: the digests of what the model read (read before change holds
      # per file, whatever store holds it), the texts converters made; and,
      # in the default store where attachments are kept, which file each
      # attachment was kept as.
      module Memories # :nodoc:
        # Keeps an attachment's Active Storage blob as the file at +path+: the
        # owning store's keep_blob where it has one, else a write of its bytes.
        def keep_blob(path, blob, content_type: nil)
          path = FileStore.path(path)
          refuse_mount_folder(path)
          routed(path) do |entry, inner|
            store = entry.store
            kept = if store.respond_to?(:keep_blob)
                     store.keep_blob(inner, blob, content_type:)
                   else
                     store.write(inner, blob.download, content_type: content_type || blob.content_type)
                   end
            FullPaths.file(entry, kept)
          end
        end

        # The digest the model read at +path+, as the store that holds it remembers it.
        def read_digest(path)
          path = FileStore.path(path)
          routed(path) { |entry, inner| entry.store.read_digest(inner) }
        end

        # Remembers the read in the store that holds +path+. See RubyLLM::FileStore#record_read.
        def record_read(path, digest)
          path = FileStore.path(path)
          routed(path) { |entry, inner| entry.store.record_read(inner, digest) }
        end

        # Forgets the reads of +paths+, each in the store that holds it.
        def forget_reads(paths)
          paths.group_by { |path| @table.entry_for(FileStore.path(path)) }.each do |entry, group|
            entry.store.forget_reads(group.map { |path| entry.inner(FileStore.path(path)) })
          end
        end

        # The text kept for +file+ by the store that holds it. See RubyLLM::FileStore#cached_text.
        def cached_text(file)
          entry = @table.entry_for(file.path)
          entry.store.cached_text(FullPaths.inner_file(entry, file))
        end

        # Keeps +text+ in the store that holds +file+. See RubyLLM::FileStore#cache_text.
        def cache_text(file, text)
          entry = @table.entry_for(file.path)
          entry.store.cache_text(FullPaths.inner_file(entry, file), text)
        end

        # Attachments are kept in the default store, which remembers them.
        def attachment_path(key) = default_store.attachment_path(key)
        # Attachments are kept in the default store: see RubyLLM::FileStore#remember_attachment.
        def remember_attachment(key, path) = default_store.remember_attachment(key, path)
      end
    end
  end
end
