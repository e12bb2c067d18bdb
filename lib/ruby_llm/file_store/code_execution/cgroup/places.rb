# frozen_string_literal: true

module RubyLLM
  class FileStore
    class CodeExecution
      class Cgroup # :nodoc:
        # Where this process may make cgroups for its runs: under its own
        # cgroup, in cgroup v2 when the pids controller is on for children
        # there, else in the v1 pids (and memory) hierarchies.
        module Places # :nodoc:
          ROOT = '/sys/fs/cgroup'

          module_function

          # { version: 1 or 2, pids: dir, memory: dir or nil }, or nil when
          # no writable pids controller exists.
          def detect
            own = File.readlines('/proc/self/cgroup', chomp: true).to_h do |line|
              _, controllers, path = line.split(':', 3)
              [controllers, path]
            end
            v2(own) || v1(own)
          rescue SystemCallError
            nil
          end

          def v2(own)
            base = [ROOT, "#{ROOT}/unified"].find { |dir| File.exist?("#{dir}/cgroup.controllers") }
            return nil unless base && own['']

            dir = File.join(base, own[''])
            enabled = File.read("#{dir}/cgroup.subtree_control").split
            return nil unless enabled.include?('pids') && writable_parent?(dir)

            { version: 2, pids: dir, memory: (dir if enabled.include?('memory')) }
          rescue SystemCallError
            nil
          end

          def v1(own)
            pids = v1_dir(own, 'pids')
            return nil unless pids

            { version: 1, pids:, memory: v1_dir(own, 'memory') }
          end

          def v1_dir(own, controller)
            path = own.find { |names, _| names.split(',').include?(controller) }&.last
            return nil unless path

            dir = File.join(ROOT, controller, path)
            writable_parent?(dir) ? dir : nil
          end

          # Whether a child group can be made in +dir+ (tried, then removed).
          def writable_parent?(dir)
            probe = File.join(dir, "ruby_llm_probe_#{Process.pid}_#{SecureRandom.hex(4)}")
            Dir.mkdir(probe)
            Dir.rmdir(probe)
            true
          rescue SystemCallError
            false
          end
        end
      end
    end
  end
end
