# frozen_string_literal: true

module RubyLLM
  class FileStore
    class CodeExecution
      # What one run did: its output (capped), how it ended, and the paths of
      # the files it created, changed or deleted, never the files themselves.
      #
      # - stopped: why the sandbox stopped it (time, memory), or nil.
      # - changed: files that existed and now differ; the model reads them
      #   again before changing them with edit_file or write_file.
      # - unsaved_files / files_error: what a full or read-only store did
      #   not take, or a folder over its cap lost, with the store's message
      #   (when several stores' are, the first; the others are notes).
      # - shadowed_mounts: mounts the folder's own files hid.
      # - files: the StoredFiles created or changed; for a run in a store's
      #   folder they are made (and their digests taken) when first asked
      #   for, after the store's lock is let go.
      # - written_in_place: the paths of files the code wrote in a folder
      #   store in place, which never passed through a store's write (the
      #   rest of +files+ were saved through it).
      Result = Struct.new(:language, :exit_status, :signal, :stopped, :stdout, :stderr, :created, :changed,
                          :deleted, :unsaved_files, :files_error, :shadowed_mounts, :notes, :files,
                          :written_in_place, keyword_init: true) do
        def success? = exit_status&.zero? && stopped.nil?

        def files
          value = self[:files]
          value.respond_to?(:call) ? (self[:files] = value.call) : value
        end

        # What the model sees: empty parts left out.
        def to_h
          h = { exit_status:, signal:, stopped:, stdout:, stderr:, created:, changed:, deleted:, unsaved_files:,
                files_error:, shadowed_mounts:, notes: }
          h.reject { |key, value| value.nil? || (value.respond_to?(:empty?) && value.empty? && key != :stdout) }
        end
      end
    end
  end
end
