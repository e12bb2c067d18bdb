# frozen_string_literal: true

require 'fileutils'
require 'tmpdir'

module RubyLLM
  class FileStore
    class CodeExecution
      # Files between a store that is not a folder and a run's empty folder:
      # the files the model names are copied in at the same paths (a folder
      # name copies everything in it), and what the run created or changed
      # is written back through the store's own write, so the store's limits
      # and locks apply. Deleting a copied file leaves it in the store.
      module Staging
        SHM = '/dev/shm'
        SCRATCH_IN_MEMORY = 32 * 1024 * 1024

        module_function

        # The StoredFiles that +names+ (files and folders) name. Raises
        # Refusal naming every name with no file.
        def resolve(store, names)
          return [] if names.nil?

          names = Array(names)
          unless names.all?(String)
            raise Tools::Refusal, 'files must be a list of file or folder paths, like ["data/sales.csv"]'
          end

          found = names.to_h { |name| [name, files_for(store, name)] }
          missing = found.select { |_, files| files.empty? }.keys
          unless missing.empty?
            raise Tools::Refusal, "#{missing.join(', ')}: no such file or folder in the files. " \
                                  'Find the paths with list_files.'
          end

          found.values.flatten.uniq(&:path)
        end

        # Copies +files+ (StoredFiles of +store+) into +folder+.
        def copy_in(store, folder, files)
          made = {}
          files.each do |file|
            full = File.join(folder, file.path)
            dir = File.dirname(full)
            made[dir] ||= FileUtils.mkdir_p(dir)
            File.binwrite(full, store.read(file.path))
          end
        end

        # Where a run's temporary folder goes. A tmpfs (/dev/shm) makes and
        # removes small files ten times faster than a disk, but what the run
        # writes there is memory: so only when a memory cgroup charges the
        # run for it, and when the files copied in are few megabytes.
        def scratch_dir(files, memory_capped:)
          small = files.sum(&:byte_size) <= SCRATCH_IN_MEMORY
          return SHM if memory_capped && small && File.directory?(SHM) && File.writable?(SHM)

          Dir.tmpdir
        end

        def files_for(store, name)
          path = FileStore.path(name)
          file = store[path]
          file ? [file] : store.list(path)
        end

        # Writes the paths of +folder+ back to +store+ with the store's
        # write_many (in batches on Active Storage; each file opened when its
        # turn comes, closed after), none started after +deadline+. Returns
        # [saved StoredFiles, unsaved paths, the store's message]. A file the
        # store refuses, for whatever reason, is named unsaved: the run's
        # output still comes back.
        def save(store, folder, paths, deadline: nil)
          store.write_many(paths, deadline:) do |path|
            File.open(File.join(folder, path), File::RDONLY | File::NOFOLLOW | File::BINARY)
          end
        end
      end
    end
  end
end
