# frozen_string_literal: true

require 'securerandom'
require_relative 'cgroup/places'

module RubyLLM
  class FileStore
    class CodeExecution
      # A control group for one run, which caps the processes it may start
      # (a fork bomb gets EAGAIN instead of filling the machine) and, where
      # the memory controller is there too, the memory it may use.
      #
      # Why a cgroup: RLIMIT_NPROC counts per user and is ignored for root,
      # so a run as root can only be held to a number of processes by a pids
      # cgroup. The group is made under the cgroup this process is in, in
      # cgroup v2 (when its pids controller is on for children) or in the v1
      # pids and memory hierarchies, so the run stays inside whatever limits
      # this process already has.
      class Cgroup # :nodoc:
        # Where groups can be made (see Cgroup::Places), found once per process.
        def self.available
          return @available if defined?(@available)

          @available = Places.detect
        end

        attr_reader :procs_files

        # Makes the groups for one run: at most +processes+ processes, and
        # +memory+ bytes when the memory controller is there.
        def initialize(where, processes:, memory:)
          @where = where
          @dirs = []
          name = "ruby_llm_run_#{Process.pid}_#{SecureRandom.hex(6)}"
          if where[:version] == 2
            make(where[:pids], name, 'pids.max' => processes, 'memory.max' => (memory if where[:memory]),
                                     'memory.swap.max' => (0 if where[:memory]))
          else
            make(where[:pids], name, 'pids.max' => processes)
            make(where[:memory], name, 'memory.limit_in_bytes' => memory) if where[:memory] && memory
          end
          @procs_files = @dirs.map { |dir| File.join(dir, 'cgroup.procs') }
        rescue SystemCallError
          remove
          raise
        end

        # Whether memory is capped by the group (else the caller uses RLIMIT_AS).
        def memory? = !@where[:memory].nil?

        # Whether the run hit its process cap, or was killed for memory.
        def processes_refused?
          events(@dirs.first, 'pids.events').fetch('max', 0).positive?
        end

        def out_of_memory?
          dir = @dirs[1] || (@dirs.first if @where[:version] == 2 && @where[:memory])
          return false unless dir

          file = @where[:version] == 2 ? 'memory.events' : 'memory.oom_control'
          events(dir, file).fetch('oom_kill', 0).positive?
        end

        # Kills every process still in the groups.
        def kill_processes
          @dirs.each { |dir| kill_all(dir) }
        end

        # Kills what is left in the groups and removes them.
        def remove
          @dirs.reverse_each do |dir|
            200.times do
              kill_all(dir)
              Dir.rmdir(dir)
              break
            rescue Errno::EBUSY
              sleep 0.005
            rescue Errno::ENOENT
              break
            end
          end
          @dirs.clear
        end

        private

        def make(parent, name, settings)
          dir = File.join(parent, name)
          Dir.mkdir(dir)
          @dirs << dir
          settings.each do |file, value|
            File.write(File.join(dir, file), value.to_s) unless value.nil?
          rescue Errno::ENOENT
            raise if file == 'pids.max' # memory.swap.max is missing where swap is not accounted
          end
        end

        def kill_all(dir)
          return unless File.directory?(dir)

          File.read(File.join(dir, 'cgroup.procs')).split.each do |pid|
            Process.kill(:KILL, Integer(pid))
          rescue Errno::ESRCH, Errno::EPERM
            nil
          end
        rescue SystemCallError
          nil
        end

        def events(dir, file)
          File.readlines(File.join(dir, file), chomp: true).to_h do |line|
            key, value = line.split
            [key, value.to_i]
          end
        rescue SystemCallError
          {}
        end
      end
    end
  end
end
