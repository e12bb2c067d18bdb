# frozen_string_literal: true

module RubyLLM
  class FileStore
    class Mounts < FileStore
      # A move in a tree of stores. Within one store it is that store's own
      # move (a rename on disk, an update of rows, a change under a lock).
      # Between two stores it copies each file, then deletes the originals,
      # holding both stores' locks in their global order (see Locks), so two
      # moves in opposite directions, in one tree or two, wait for each other
      # instead of deadlocking; a copy that fails, or a delete of the
      # originals, takes the copies made back (writing back the originals
      # already deleted), so the source stays as it was. The read digests
      # move with the files.
      #
      # A mount point, and a folder holding one, cannot be moved (the mount
      # would stay behind), nor moved onto: the mount's folder exists.
      class Moving # :nodoc:
        def initialize(table)
          @table = table
        end

        # See RubyLLM::FileStore#move; +path+ and +new_path+ are normalised.
        def move(path, new_path)
          FileStores::Native::CopyMove.paths(path, new_path)
          refuse_mount(path)
          raise RubyLLM::FileExistsError, new_path if @table.mount_folder?(new_path)

          from = @table.entry_for(path)
          to = @table.entry_for(new_path)
          return within(from, from.inner(path), to.inner(new_path)) if from.equal?(to)

          between(from, from.inner(path), to, to.inner(new_path))
        end

        private

        def refuse_mount(path)
          inside = @table.mounts.select { |entry| entry.name == path || entry.name.start_with?("#{path}/") }
          return if inside.empty?

          raise ArgumentError, "#{path} is where a store is mounted (#{inside.map(&:name).join(', ')}), so it cannot " \
                               'move: move the files inside it instead'
        end

        def within(entry, from, to)
          moved = FullPaths.naming(entry, from, to) { entry.store.move(from, to) }
          moved.is_a?(Array) ? moved.map { |file| FullPaths.file(entry, file) } : FullPaths.file(entry, moved)
        end

        def between(from, source, to, target)
          full_source = from.full(source)
          raise RubyLLM::FileStore::ReadOnlyError, full_source if Locks.read_only?(from.store)
          raise RubyLLM::FileStore::ReadOnlyError, to.full(target) if Locks.read_only?(to.store)

          Locks.hold([from.store, to.store]) do
            file = from.store[source]
            sources = file ? [file] : visible(from, source)
            check_places(sources, full_source, to, target)
            moved = copy_then_delete(from, sources, source, to, target)
            file ? moved.first : moved.sort_by(&:path)
          end
        end

        # The copies of +sources+ in +to+, at their full paths, once the
        # originals are deleted and the reads moved.
        def copy_then_delete(from, sources, source, to, target)
          # Taken first: a store may keep them with the file (Active
          # Storage's rows), which the delete takes away.
          digests = sources.map { |file| from.store.read_digest(file.path) }
          moved = copy_all(from, sources, source, to, target)
          delete_sources(from, sources, to, moved)
          move_reads(from, sources, digests, to, moved)
          moved.map { |copy| FullPaths.file(to, copy) }
        end

        def check_places(sources, full_source, to, target)
          raise RubyLLM::FileNotFoundError, "#{full_source} does not exist" if sources.empty?
          raise RubyLLM::FileExistsError, to.full(target) if to.store[target] || !to.store.list(target).empty?

          # A store with only the five methods may not refuse a write through a file.
          FullPaths.naming(to, target) { FileStores::Native::CopyMove.check_way(to.store, target) }
        end

        def visible(entry, folder)
          entry.store.list(folder).select { |file| @table.visible?(entry, entry.full(file.path)) }
        end

        # Writes a copy of each of +sources+ into +to+'s store at +target+;
        # when one fails, takes the copies back and raises its error, naming
        # full paths.
        def copy_all(from, sources, source, to, target)
          copies = []
          sources.each do |file|
            path = FileStores::Native::CopyMove.new_path_of(file.path, source, target)
            copies << copy(from, file, to, path)
          end
          copies
        rescue StandardError
          remove(to, copies)
          raise
        end

        # Copies +file+ of +from+ to +path+ in +to+, naming each store's
        # errors by full paths; a big file goes through a spool on disk
        # (see FileStores::Native::CopyMove.content_of).
        def copy(from, file, to, path)
          content = FullPaths.naming(from, file.path) { FileStores::Native::CopyMove.content_of(from.store, file) }
          FullPaths.naming(to, path) { to.store.write(path, content, content_type: file.content_type) }
        ensure
          content.close! if content.is_a?(Tempfile)
        end

        # Deletes the originals; when one cannot be deleted, those already
        # deleted are written back from their copies and the copies taken
        # back, so the source is as it was (see CopyMove::Originals.delete).
        def delete_sources(from, sources, to, copies)
          FileStores::Native::CopyMove::Originals.delete(from.store, sources, to.store, copies) do |file|
            FullPaths.naming(from, file.path) { from.store.delete(file.path) }
          end
        end

        def remove(entry, copies)
          copies.each do |copy|
            entry.store.delete(copy.path)
          rescue StandardError
            nil
          end
        end

        def move_reads(from, sources, digests, to, copies)
          sources.zip(digests, copies).each do |file, digest, copy|
            from.store.record_read(file.path, nil)
            to.store.record_read(copy.path, digest) if digest
          end
        end
      end
    end
  end
end
