# frozen_string_literal: true

module RubyLLM
  class FileStore
    class CodeExecution
      # Folders and files from outside the store bound into the run's folder
      # for one run (read-only, but for the writable folders of a tree of
      # stores: see Layout), and removed after it: the mountpoints (and
      # any folders made for them) are made before the run and taken away
      # after, only when they are still empty. Where the folder has its own
      # file or folder at a mount's path, the run sees that instead and the
      # mount is named as shadowed; but a mount that +hides+ the folder's
      # own (a tree's mount, which hides it in the tree's listing too) is
      # bound over a folder there, so the code sees and writes the mount's
      # files, never the hidden ones no tool reaches.
      class Mounts # :nodoc:
        Mount = Struct.new(:inside, :source, :writable, :hides, keyword_init: true)

        # +mounts+ (path in the folder => host path) checked once;
        # +writable+: bound read-write; +hides+: bound over a folder of the
        # folder's own at its path.
        def self.check(mounts, writable: false, hides: false)
          mounts.map do |inside, source|
            inside = FileStore.path(inside.to_s)
            source = source.to_s
            raise ArgumentError, "mounts: #{source} does not exist" unless File.exist?(source)

            Mount.new(inside:, source: File.realpath(source), writable:, hides:)
          end
        end

        attr_reader :active, :shadowed

        # +links+: symbolic links instead of bind mounts (no sandbox).
        # +make+: false for a folder that gets no entry (a read-only
        # store's): the same mounts are active or shadowed, but no mount
        # point is made in it; the sandbox lays the folder out around them
        # (ReadOnlyRoot).
        def initialize(folder, mounts, links:, make: true)
          @folder = folder
          @mounts = mounts
          @links = links
          @make = make
          @active = []
          @shadowed = []
          @made = []
        end

        # Makes the mountpoints; returns [[source, inside, writable], ...] to
        # bind.
        def setup
          @mounts.each do |mount|
            if bind_over?(mount)
              @active << [mount.source, mount.inside, mount.writable == true]
            elsif taken?(mount.inside)
              @shadowed << mount.inside
            else
              make(mount) if @make
              @active << [mount.source, mount.inside, mount.writable == true]
            end
          end
          @active
        rescue SystemCallError => e
          raise Tools::Refusal, "run_code cannot run here: a mount point could not be made in the files' folder " \
                                "(#{ReadOnlyRoot.reason(e)}). Read the files with read_file and search_files " \
                                'instead, and tell the user why run_code could not run.'
        end

        # The steps laying the folder out around the active mounts
        # (ReadOnlyRoot.steps), when setup made no mount point in it; else
        # nil, and the folder is bound whole.
        def root = @make || @active.empty? ? nil : ReadOnlyRoot.steps(@folder, paths)

        # The paths the mounts take, for a snapshot to skip.
        def paths = @active.map { |_, inside| inside }

        # Removes the mountpoints and the folders made for them, if empty.
        # Code may have swapped a folder on the way for a link: each is
        # reached from the folder's descriptor, never through a link.
        def teardown
          @made.reverse_each do |inside|
            FileStores::Native::RunTree.remove_empty(@folder, inside)
          rescue StandardError
            nil
          end
          @made.clear
        end

        private

        # Whether +mount+ hides a folder the folder has at its path (each
        # step a folder, never a link), which a bind covers as it is. A
        # link or a file there stays shadowed: a bind would follow the link
        # or need a folder.
        def bind_over?(mount)
          return false unless mount.hides && !@links

          parts = mount.inside.split('/')
          parts.each_index.all? { |i| File.lstat(File.join(@folder, *parts[0..i])).directory? }
        rescue SystemCallError
          false
        end

        # Whether the folder has something at +inside+ or at a parent of it
        # that is not a folder.
        def taken?(inside)
          parts = inside.split('/')
          parts.each_index.any? do |i|
            full = File.join(@folder, *parts[0..i])
            stat = File.lstat(full)
            i == parts.size - 1 || !stat.directory?
          rescue Errno::ENOENT
            return false
          end
        end

        def make(mount)
          parts = mount.inside.split('/')
          parts[0...-1].each_index do |i|
            inside = parts[0..i].join('/')
            next if File.directory?(File.join(@folder, inside))

            Dir.mkdir(File.join(@folder, inside))
            @made << inside
          end
          full = File.join(@folder, mount.inside)
          if @links
            File.symlink(mount.source, full)
          elsif File.directory?(mount.source)
            Dir.mkdir(full)
          else
            File.write(full, '')
          end
          @made << mount.inside
        end
      end
    end
  end
end
