# frozen_string_literal: true

require_relative 'bwrap'
require_relative 'cgroup'
require_relative 'output'

module RubyLLM
  class FileStore
    class CodeExecution
      # Runs one program, under bubblewrap (see Bwrap) unless the runner was
      # made with sandbox: false, with limits, and says how it ended.
      #
      # Limits: wall time (the process group is killed), CPU time, file size
      # (RLIMIT_FSIZE), processes and threads (a pids cgroup; without one, a
      # non-root user gets RLIMIT_NPROC set inside the user namespace, where
      # it counts only the sandbox's processes; root ignores RLIMIT_NPROC, so
      # root without a cgroup cannot be limited and construction refuses),
      # memory (a memory cgroup, with RLIMIT_AS to spare; else RLIMIT_AS
      # alone, only when asked for with memory_limit: :per_process), and the
      # output kept from stdout and stderr.
      class Sandbox # :nodoc:
        # How a run ended.
        Outcome = Struct.new(:exit_status, :signal, :stdout, :stderr, :timed_out, :out_of_memory,
                             :processes_refused, keyword_init: true)

        READER_WAIT = 2
        ADDRESS_SPACE_SPARE = 2 * 1024 * 1024 * 1024
        # The shell joins the groups, then becomes the program, so even the
        # program's first fork is counted.
        JOIN = 'while [ "$1" != -- ]; do echo $$ > "$1" || exit 125; shift; done; shift; exec "$@"'
        MEMORY_LIMITS = %i[whole_run per_process].freeze

        # +memory_limit+: :whole_run (the default) holds all of a run's
        # processes and its /tmp together to the memory limit, which takes a
        # memory cgroup: without one, construction raises. :per_process
        # accepts RLIMIT_AS alone where there is none: each process gets the
        # limit, and /tmp (a tmpfs as large as the limit) comes on top.
        def initialize(enabled:, limits:, read_only: [], memory_limit: :whole_run)
          unless MEMORY_LIMITS.include?(memory_limit)
            raise ArgumentError, "memory_limit must be :whole_run or :per_process, not #{memory_limit.inspect}"
          end

          @limits = limits
          @cgroup_place = Cgroup.available
          @bwrap = Bwrap.new(read_only:, tmp_size: limits[:memory]) if enabled
          check_cgroup(memory_limit) if enabled
        end

        # Whether a memory cgroup charges each run for the memory it uses
        # (a tmpfs it writes to included).
        def memory_capped? = !@cgroup_place.nil? && !@cgroup_place[:memory].nil?

        # Where the program sees its code file and the run's folder.
        def code_path(host_code) = @bwrap ? @bwrap.code_path(host_code) : host_code
        def folder_path(host_folder) = @bwrap ? @bwrap.workdir : host_folder

        # Runs +argv+ in +folder+, with +code+ (a host file) at code_path,
        # +mounts+ ([host path, path in the folder]) and +home_files+ (path
        # in home => host file) read-only, and +env+ as the whole
        # environment; +root+: the folder laid out around its mounts
        # (ReadOnlyRoot.steps) instead of bound whole. Returns an Outcome.
        def run(argv, folder:, code:, env:, mounts: [], home_files: {}, folder_read_only: false, root: nil)
          cgroup = @cgroup_place && Cgroup.new(@cgroup_place, processes: @limits[:processes],
                                                              memory: @limits[:memory])
          argv = ['prlimit', "--nproc=#{@limits[:processes]}", '--', *argv] if !cgroup && @bwrap && !Process.uid.zero?
          command = @bwrap ? @bwrap.command(argv, folder:, code:, mounts:, home_files:, folder_read_only:, root:) : argv
          command = ['/bin/sh', '-c', JOIN, 'sh', *cgroup.procs_files, '--', *command] if cgroup
          execute(command, folder, env, cgroup)
        ensure
          cgroup&.remove
        end

        private

        # Refuses limits this machine cannot hold: processes for root
        # without a pids cgroup, and memory for the whole run without a
        # memory cgroup unless :per_process was asked for.
        def check_cgroup(memory_limit)
          if !@cgroup_place && Process.uid.zero?
            raise ConfigurationError, 'run_code cannot limit the processes code starts: this process runs as root, ' \
                                      'which RLIMIT_NPROC does not hold, and no pids cgroup is writable. Run as ' \
                                      'another user, give this process a writable cgroup, or pass sandbox: false'
          end
          return if memory_capped? || memory_limit == :per_process

          raise ConfigurationError, per_process_message
        end

        def per_process_message
          'run_code cannot hold a run to its memory limit: no memory cgroup is writable here, so the limit would ' \
            "be RLIMIT_AS on each of up to #{@limits[:processes]} processes, and the run's /tmp (a tmpfs) would " \
            'not count. Give this process a writable cgroup with the memory controller (systemd: Delegate=yes ' \
            'in its unit; cgroup v2: memory and pids in the parent group\'s cgroup.subtree_control), or pass ' \
            'memory_limit: :per_process to accept the limit per process (a run may then use up to ' \
            'processes x memory, plus as much again in /tmp)'
        end

        def execute(command, folder, env, cgroup)
          out_r, out_w = IO.pipe
          err_r, err_w = IO.pipe
          pid = Process.spawn(env, *command, in: File::NULL, out: out_w, err: err_w, chdir: folder, pgroup: true,
                                             unsetenv_others: true, close_others: true, **rlimits(cgroup))
          [out_w, err_w].each(&:close)
          stdout, stderr = [out_r, err_r].map { Output.new(@limits[:output]) }
          readers = [stdout.drain(out_r), stderr.drain(err_r)]
          status, timed_out = wait(pid)
          cgroup&.kill_processes
          readers.each { |thread| thread.join(READER_WAIT) || thread.kill }
          outcome(status, stdout, stderr, timed_out, cgroup)
        ensure
          [out_r, out_w, err_r, err_w].each { |io| io.close if io && !io.closed? }
        end

        # Waits for the program up to the time limit, then kills its process
        # group; either way nothing of the group is left running.
        def wait(pid)
          waiter = Process.detach(pid)
          timed_out = waiter.join(@limits[:timeout]).nil?
          kill_group(pid)
          [waiter.value, timed_out]
        end

        def rlimits(cgroup)
          limits = { rlimit_cpu: @limits[:timeout].ceil + 1, rlimit_core: 0, rlimit_fsize: @limits[:file_size] }
          # With a memory cgroup, address space gets room to spare (interpreters
          # reserve more than they use) and only stops one huge allocation at
          # once, with an error the code sees, instead of a slow OOM kill.
          space = cgroup&.memory? ? @limits[:memory] + ADDRESS_SPACE_SPARE : @limits[:memory]
          limits.merge(rlimit_as: [space, space])
        end

        def kill_group(pid)
          Process.kill(:KILL, -pid)
        rescue Errno::ESRCH, Errno::EPERM
          nil
        end

        def outcome(status, stdout, stderr, timed_out, cgroup)
          code = status.exitstatus
          signal = status.termsig
          # bubblewrap exits with 128 + the signal that ended the program.
          if @bwrap && code && code > 128 && code < 160
            signal = code - 128
            code = nil
          end
          Outcome.new(exit_status: code, signal:, stdout:, stderr:, timed_out:,
                      out_of_memory: cgroup&.out_of_memory? || false,
                      processes_refused: cgroup&.processes_refused? || false)
        end
      end
    end
  end
end
