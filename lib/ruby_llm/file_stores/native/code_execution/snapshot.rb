# frozen_string_literal: true

module RubyLLM
  class FileStore
    class CodeExecution
      # What a folder holds, by fingerprint (inode, size, mtime, ctime), to
      # tell which files a run created, changed or deleted without reading
      # them. Follows the store's rules: hidden names (a leading dot) and
      # symbolic links are not files of the store, so they are left out; the
      # links are named, so a result can say they were not kept.
      class Snapshot
        attr_reader :files, :links, :odd

        def self.take(root, skip: [])
          new(root, skip).tap(&:walk)
        end

        def initialize(root, skip)
          @root = root
          @skip = skip
          @files = {}
          @links = []
          @odd = []
        end

        def walk(dir = @root, prefix = '')
          Dir.each_child(dir) do |name|
            next if name.start_with?('.')

            path = "#{prefix}#{name}"
            next if @skip.include?(path)

            visit(File.join(dir, name), path)
          end
        rescue Errno::ENOENT, Errno::ENOTDIR, Errno::EACCES
          nil
        end

        # Paths in +after+ that are not here, that differ, and that are gone.
        def diff(after)
          created = after.files.keys - files.keys
          changed = after.files.select { |path, print| files.key?(path) && files[path] != print }.keys
          deleted = files.keys - after.files.keys
          [created.sort, changed.sort, deleted.sort]
        end

        private

        def visit(full, path)
          stat = File.lstat(full)
          if stat.symlink?
            @links << path
          elsif stat.directory?
            walk(full, "#{path}/")
          elsif stat.file?
            @files[path] = [stat.ino, stat.size, stat.mtime.to_r, stat.ctime.to_r]
          else
            @odd << path
          end
        rescue Errno::ENOENT
          nil
        end
      end
    end
  end
end
