# frozen_string_literal: true

require 'open3'

module RubyLLM
  class FileStore
    class CodeExecution
      # The bubblewrap command line of a run.
      #
      # Inside: the system folders read-only (/usr and its links, a few files
      # of /etc, the interpreters' own folders), a fresh /dev, /proc and /tmp
      # (a tmpfs no bigger than the memory limit), the run's folder at the
      # work folder as the only writable place, and no network (a new network
      # namespace with only loopback). New PID, IPC, UTS, cgroup and user
      # namespaces, every capability dropped, a new session (no terminal to
      # push keys into), killed when its parent dies. The code runs as user
      # and group 65534 (nobody) inside, not as the host's user, where
      # bubblewrap allows it; the host's uid stays the owner of what it
      # writes, so the host takes away setuid, setgid and world-write bits
      # after each run (see Snapshot#sweep).
      class Bwrap # :nodoc:
        # /etc entries programs commonly read; the rest of /etc stays out.
        ETC = %w[passwd group hosts nsswitch.conf localtime timezone ssl ca-certificates alternatives
                 ld.so.cache ld.so.conf ld.so.conf.d fonts mime.types os-release debian_version].freeze
        SYSTEM = %w[/usr /bin /sbin /lib /lib32 /lib64 /libx32].freeze
        NAMESPACES = %w[--unshare-all --unshare-user --die-with-parent --new-session --cap-drop ALL
                        --hostname sandbox].freeze
        # Where the run's folder is seen: the first that no read-only folder
        # is inside of or contains.
        WORKDIRS = %w[/work /sandbox/work /run_code/work].freeze
        CODE_DIR = '/run_code'
        IDS = %w[--uid 65534 --gid 65534].freeze

        PROBED = {} # rubocop:disable Style/MutableConstant -- one probe per bwrap path and process
        PROBE_LOCK = Mutex.new
        private_constant :PROBED, :PROBE_LOCK

        attr_reader :workdir

        # Finds bubblewrap and makes one sandbox (once per process), so a
        # machine without one raises RubyLLM::ConfigurationError here.
        def initialize(read_only:, tmp_size:)
          @read_only = read_only.uniq
          @tmp_size = tmp_size
          @path = which('bwrap')
          raise ConfigurationError, missing_message unless @path

          @workdir = WORKDIRS.find { |dir| @read_only.none? { |path| inside?(path, dir) || inside?(dir, path) } }
          raise ConfigurationError, "run_code needs a work folder apart from #{@read_only.join(', ')}" unless @workdir

          @system = system_binds.freeze
          probe
          @ids = probe(IDS) ? IDS : []
        end

        # Where the program sees its code file.
        def code_path(host_code) = "#{CODE_DIR}/#{File.basename(host_code)}"

        # The command running +argv+ with +folder+ writable at workdir
        # (read-only with +folder_read_only+: a read-only store's own folder),
        # +code+ read-only at code_path, and +mounts+ ([host, path in the
        # folder, writable]) inside the folder, read-only unless writable (a
        # tree's writable folder store), and +home_files+ (path in
        # home => host file) read-only in the home, /tmp. +root+: the steps
        # laying a read-only folder out around its mounts (ReadOnlyRoot),
        # on a tmpfs made read-only once the mounts are bound, instead of
        # binding it whole, which would need mount points made in it.
        def command(argv, folder:, code:, mounts:, home_files: {}, folder_read_only: false, root: nil)
          args = [@path, *NAMESPACES, *@ids, *@system]
          @read_only.each { |path| args.push('--ro-bind', path, path) }
          args.push('--size', @tmp_size.to_s) if @tmp_size
          args.push('--tmpfs', '/tmp')
          work_folder(args, folder, folder_read_only, root)
          home_files.each { |inside, host| args.push('--ro-bind', host, "/tmp/#{inside}") }
          mounts.each do |source, inside, writable|
            args.push(writable ? '--bind' : '--ro-bind', source, "#{@workdir}/#{inside}")
          end
          args.push('--remount-ro', @workdir) if root
          args.push('--ro-bind', code, code_path(code), '--chdir', @workdir, '--', *argv)
        end

        private

        # The run's folder at the work folder: bound whole, or a tmpfs that
        # the +root+ steps lay out (made read-only once the mounts are in).
        def work_folder(args, folder, read_only, root)
          return args.push(read_only ? '--ro-bind' : '--bind', folder, @workdir) unless root

          args.push('--tmpfs', @workdir)
          root.each { |*step, inside| args.push(*step, "#{@workdir}/#{inside}") }
        end

        # Whether the sandbox can be made with +extra+ arguments; without
        # any, raises when it cannot be made at all.
        def probe(extra = [])
          PROBE_LOCK.synchronize do
            key = [@path, *extra].join(' ')
            PROBED.fetch(key) do
              out, status = Open3.capture2e(@path, *NAMESPACES, *extra, *@system, '--', '/bin/sh', '-c', 'exit 0')
              if !status.success? && extra.empty?
                raise ConfigurationError, "run_code cannot make its sandbox here: #{out.strip}. Allow user " \
                                          'namespaces (user.max_user_namespaces, or on some kernels ' \
                                          'kernel.unprivileged_userns_clone=1), or pass sandbox: false'
              end

              PROBED[key] = status.success?
            end
          end
        end

        def system_binds
          args = []
          SYSTEM.each do |dir|
            if File.symlink?(dir)
              args.push('--symlink', File.readlink(dir), dir)
            elsif File.directory?(dir)
              args.push('--ro-bind', dir, dir)
            end
          end
          ETC.each { |name| args.push('--ro-bind-try', "/etc/#{name}", "/etc/#{name}") }
          Dir['/etc/python3*'].each { |dir| args.push('--ro-bind', dir, dir) }
          args.push('--dev', '/dev', '--proc', '/proc')
        end

        # bubblewrap is Linux only (it needs Linux namespaces); on macOS a
        # sandbox would be Seatbelt's (see docs/run-code.md), which this gem does not make.
        def missing_message
          unless RUBY_PLATFORM.include?('linux')
            return "run_code's sandbox needs bubblewrap, which runs only on Linux, and this is #{RUBY_PLATFORM}: " \
                   'run code on a Linux machine, or pass sandbox: false to run code without one'
          end

          'run_code needs bubblewrap for its sandbox and it is not installed: ' \
            'apt-get install bubblewrap, or pass sandbox: false to run code without one'
        end

        def which(name)
          ENV.fetch('PATH', '').split(File::PATH_SEPARATOR).map { |dir| File.join(dir, name) }
             .find { |path| File.executable?(path) && !File.directory?(path) }
        end

        def inside?(path, dir)
          path == dir || path.start_with?("#{dir}/")
        end
      end
    end
  end
end
