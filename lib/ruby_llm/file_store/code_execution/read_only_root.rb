# frozen_string_literal: true

module RubyLLM
  class FileStore
    class CodeExecution
      # The run's folder when it is a read-only store's own folder and
      # mounts are bound inside it (a tree's mounts, the runner's mounts and
      # skills). Their mount points cannot be made in the folder: a
      # read-only store gets no entry, ever, not even for the length of a
      # run (a process killed mid-run would leave them for good, and as the
      # app's user a root-owned folder refuses them). So the sandbox builds
      # the folder in a fresh tmpfs instead: each entry of the folder bound
      # read-only at its name (a link made again as the same link, never
      # followed on the host), the folders on the way to a mount made on
      # the tmpfs with their own entries bound the same way, the mounts
      # bound beside them, and the tmpfs then made read-only, so the code
      # sees the folder as a read-only bind shows it, with the mounts at
      # their paths (see Bwrap#command).
      #
      # Each entry is a bind mount, and bubblewrap (0.8) reads the whole
      # mount table after each bind, so the sandbox's start grows with the
      # square of the entries: 0.1 s more with 128, 0.4 s with 256, 3.7 s
      # with 800. A folder with more than MAX_ENTRIES on the way to the
      # mounts is not laid out so: the run stages it (fits?, Layout), as a
      # store that is not a folder, the files the model names copied in.
      # Where the folder cannot be laid out at the run (its entries cannot
      # be read, or it grew past MAX_ENTRIES since the layout was chosen)
      # the run is refused: the tool answers { error: }.
      module ReadOnlyRoot # :nodoc:
        MAX_ENTRIES = 256
        # Of the command line, well below the kernel's ARG_MAX (2 MB with
        # the usual 8 MB stack).
        MAX_BYTES = 512 * 1024

        # A folder past MAX_ENTRIES or MAX_BYTES.
        class TooWide < StandardError; end # :nodoc:

        module_function

        # The steps that lay +folder+ out with mount points at +insides+
        # (paths in the folder, the mounts bound after): [op, host or link
        # target, path in the folder] for '--ro-bind' and '--symlink', [op,
        # path] for '--dir'. Raises Tools::Refusal when it cannot be done.
        def steps(folder, insides)
          layout(folder, insides)
        rescue TooWide => e
          raise Tools::Refusal, refusal(e.message)
        rescue SystemCallError => e
          raise Tools::Refusal, refusal("its entries cannot be read (#{reason(e)})")
        end

        # Whether +folder+ can be laid out around mount points at +insides+
        # within MAX_ENTRIES: else a run stages it. A folder whose entries
        # cannot be read is not staged either: the run says why (steps).
        def fits?(folder, insides)
          insides.empty? || layout(folder, insides).is_a?(Array)
        rescue TooWide
          false
        rescue SystemCallError
          true
        end

        def layout(folder, insides)
          steps = []
          lay_out(folder, '', tree(insides), steps)
          check_size(steps)
          steps
        end

        # The mount points as nested Hashes of names; a mount is :mount.
        # What lies inside a mount is the mount's, so it is not laid out.
        def tree(insides)
          insides.each_with_object({}) do |inside, tree|
            *parents, last = inside.split('/')
            node = parents.reduce(tree) do |level, name|
              break nil if level[name] == :mount

              level[name] ||= {}
            end
            node[last] = :mount if node
          end
        end

        # Binds the entries of +host+ (nil: a folder that is not on the
        # host, made only for the way to a mount) at +inside+, but for those
        # a mount takes; recurses into the folders on the way to a mount.
        def lay_out(host, inside, level, steps)
          names = host ? Dir.children(host).sort : []
          names.each { |name| entry(File.join(host, name), join(inside, name), level[name], steps) }
          (level.keys - names).each do |name|
            lay_out(nil, dir(join(inside, name), steps), level[name], steps) if level[name].is_a?(Hash)
          end
        end

        # One entry of the folder, +full+ on the host, at +inside+; +way+:
        # :mount where a mount takes its place (Mounts bound it over a
        # folder, or found nothing there), the mounts below it when it is
        # on the way to some, else nil.
        def entry(full, inside, way, steps)
          return if way == :mount

          stat = File.lstat(full)
          # A file or a link on the way: the mount's folder takes its place.
          return lay_out(stat.directory? ? full : nil, dir(inside, steps), way, steps) if way

          add(steps, stat.symlink? ? ['--symlink', File.readlink(full)] : ['--ro-bind', full], inside)
        end

        def dir(inside, steps)
          add(steps, ['--dir'], inside)
          inside
        end

        def add(steps, step, inside)
          steps << [*step, inside]
          return if steps.size <= MAX_ENTRIES

          raise TooWide, "it has more than #{MAX_ENTRIES} entries on the way to the mounts, each bound on its own"
        end

        def check_size(steps)
          return if steps.sum { |step| step.sum(&:bytesize) + 8 } <= MAX_BYTES

          raise TooWide, "its entries' names are too long to bind each on its own"
        end

        # A file system error's words without the host's path, which the
        # model has no use for.
        def reason(error) = SystemCallError.new(nil, error.errno).message

        def join(inside, name) = inside.empty? ? name : "#{inside}/#{name}"

        def refusal(why)
          'run_code cannot run here: the files are a read-only folder with other folders mounted in it, which ' \
            "the sandbox lays out by binding each entry of the folder beside the mounts, and #{why}. Read the " \
            'files with read_file and search_files instead, and tell the user why run_code could not run.'
        end
      end
    end
  end
end
