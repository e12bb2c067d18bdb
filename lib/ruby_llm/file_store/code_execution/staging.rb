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
      #
      # The run holds no lock on the store, so others may change it
      # meanwhile: a file is written back only when the store's version is
      # still the one the run started from (checked under the store's lock);
      # else the store's stays and the run's is named as not saved.
      module Staging # :nodoc:
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

        # Copies +files+ (StoredFiles of +store+) into +folder+. Returns
        # +versions+ (path => Staging.version: the staged stores' files, as
        # Layout#staged_versions lists them) with each copied file's taken
        # just before its read, the versions the run starts from: a write
        # between the two makes the save keep the store's file, never lose it.
        def copy_in(store, folder, files, versions)
          made = {}
          files.each do |file|
            full = File.join(folder, file.path)
            dir = File.dirname(full)
            made[dir] ||= FileUtils.mkdir_p(dir)
            versions[file.path] = version(store[file.path])
            # In chunks: a store that streams (Active Storage) copies a big file in bounded memory.
            File.open(full, File::WRONLY | File::CREAT | File::TRUNC | File::BINARY) do |out|
              store.each_chunk(file.path) { |chunk| out.write(chunk) }
            end
          end
          versions
        end

        # What tells two versions of a stored file apart: its digest, else
        # its size and time (nil: no file).
        def version(file)
          file && [file.digest, file.byte_size, (file.updated_at unless file.digest)]
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

        # Writes the paths of +folder+ back to +store+, each only if the
        # store's file is still at the version in +versions+ (from copy_in),
        # with the store's write_many (in batches on Active Storage; each file
        # opened when its turn comes, closed after), none started after
        # +deadline+. The versions are compared and the files written under
        # the store's lock, so no write can land between the two. Returns
        # [saved StoredFiles, unsaved paths, the store's message, conflicts:
        # path => :changed, :deleted or :created, what happened to the
        # store's file during the run]. A file the store refuses, for
        # whatever reason, is named unsaved: the run's output still comes back.
        def save(store, folder, paths, versions, deadline: nil)
          store.with_lock do
            now = store.list.to_h { |file| [file.path, version(file)] }
            conflicts = paths.filter_map { |path| conflict(versions[path], now[path])&.then { [path, _1] } }.to_h
            saved, unsaved, error = store.write_many(paths - conflicts.keys, deadline:) do |path|
              File.open(File.join(folder, path), File::RDONLY | File::NOFOLLOW | File::BINARY)
            end
            [saved, unsaved + conflicts.keys, error, conflicts]
          end
        end

        # What another writer did to a file since the run started from
        # +expected+ (its version then; nil when there was none): nil when
        # nothing, so the run's version may be written.
        def conflict(expected, now)
          return if now == expected
          return :created if expected.nil?

          now.nil? ? :deleted : :changed
        end
      end
    end
  end
end
