# frozen_string_literal: true

module RubyLLM
  class FileStore
    class CodeExecution
      # The checked options of a runner.
      module Options # :nodoc:
        # Limits per run: seconds of wall time, bytes of memory, processes
        # and threads, bytes per file written, bytes kept of stdout and of
        # stderr each, and the budget of what a run may leave: files and
        # folders it creates or changes (hidden ones included), and bytes of
        # the files among them (apparent and allocated, each).
        DEFAULTS = { timeout: 30, memory: 1024 * 1024 * 1024, processes: 128, file_size: 256 * 1024 * 1024,
                     output_limit: 20_000, files_budget: 10_000, bytes_budget: 256 * 1024 * 1024 }.freeze
        SKILLS_FOLDER = 'skills'

        module_function

        # { timeout:, memory:, processes:, file_size:, output:, files_budget:,
        # bytes_budget: } from the keywords given; raises ArgumentError for
        # unknown or bad ones.
        def limits(given)
          unknown = given.keys - DEFAULTS.keys
          if unknown.any?
            raise ArgumentError, "unknown option #{unknown.first}: choose from #{DEFAULTS.keys.join(', ')}"
          end

          values = DEFAULTS.merge(given)
          values.each do |name, value|
            type = name == :timeout ? Numeric : Integer
            next if value.is_a?(type) && value.positive?

            raise ArgumentError, "#{name} must be a positive #{type == Integer ? 'whole number' : 'number'}, " \
                                 "not #{value.inspect}"
          end
          values.merge(output: values.delete(:output_limit))
        end

        # Path in the folder => host path, skills under skills/<name>.
        def mount_table(mounts, skills)
          unless mounts.is_a?(Hash)
            raise ArgumentError,
                  "mounts must be a Hash of path => host path, not #{mounts.inspect}"
          end

          skills = skills.to_h { |dir| [File.basename(dir.to_s), dir] } if skills.is_a?(Array)
          unless skills.is_a?(Hash)
            raise ArgumentError, "skills must be folders or a Hash of name => folder, not #{skills.inspect}"
          end

          mounts.merge(skills.transform_keys { |name| "#{SKILLS_FOLDER}/#{name}" })
        end
      end
    end
  end
end
