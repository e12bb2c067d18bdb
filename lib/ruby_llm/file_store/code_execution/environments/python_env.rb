# frozen_string_literal: true

require 'digest'
require 'fileutils'
require 'json'
require 'open3'

module RubyLLM
  class FileStore
    class CodeExecution
      module Environments # :nodoc:
        # Python virtual environments, one per interpreter and package set,
        # made with venv and pip under the cache folder and kept there.
        module PythonEnv # :nodoc:
          PACKAGE = /\A[A-Za-z0-9][A-Za-z0-9._\-\[\],]*(?:\s*(?:[=<>!~]=?|===)\s*[A-Za-z0-9.*+!_-]+)*\z/
          READY = '.ruby_llm_ready'
          MPLCONFIG = '.ruby_llm_mplconfig'

          module_function

          # The folder the environment for +packages+ has (or will have).
          def path(info, packages, cache_dir)
            packages = packages.map { |pkg| check_package(pkg) }.uniq.sort
            key = Digest::SHA256.hexdigest(JSON.generate([info['executable'], packages]))[0, 16]
            File.join(File.expand_path(cache_dir), "python#{info['version']}-#{key}")
          end

          # Whether that environment is made already.
          def ready?(info, packages, cache_dir) = File.exist?(File.join(path(info, packages, cache_dir), READY))

          # The virtual environment with +packages+, made on first use under
          # +cache_dir+ and reused by every runner and process after it. A
          # lock file keeps two processes from making it at once; a marker
          # file says it is complete, so a half-made one is made again.
          def for(info, packages, cache_dir)
            FileUtils.mkdir_p(cache_dir)
            dir = path(info, packages, File.realpath(cache_dir))
            packages = packages.map(&:strip).uniq.sort
            ready = File.join(dir, READY)
            return dir if File.exist?(ready) && warm?(dir)

            File.open("#{dir}.lock", File::RDWR | File::CREAT, 0o644) do |lock|
              lock.flock(File::LOCK_EX)
              make(info, dir, packages, ready) unless File.exist?(ready)
              warm(dir) unless warm?(dir)
            end
            dir
          end

          # Files each run finds in its home, by path under it: matplotlib's
          # font list, made once here instead of on every run's first plot
          # (a second or more).
          def home_files(dir)
            Dir[File.join(dir, MPLCONFIG, '*.json')].to_h do |file|
              [".matplotlib/#{File.basename(file)}", file]
            end
          end

          def make(info, dir, packages, ready)
            FileUtils.rm_rf(dir)
            run!(info['executable'], '-m', 'venv', dir,
                 what: 'make a Python virtual environment (on Debian: apt-get install python3-venv)')
            run!("#{dir}/bin/python", '-m', 'pip', 'install', '--disable-pip-version-check', '--no-input', '--quiet',
                 *packages, what: "install the Python packages #{packages.join(', ')} with pip")
            File.write(File.join(dir, 'packages.json'), JSON.generate(packages))
            File.write(ready, '')
          rescue StandardError
            FileUtils.rm_rf(dir)
            raise
          end

          def warm?(dir) = !matplotlib?(dir) || File.directory?(File.join(dir, MPLCONFIG))

          def matplotlib?(dir) = !Dir[File.join(dir, 'lib', 'python*', 'site-packages', 'matplotlib')].empty?

          def warm(dir)
            building = File.join(dir, "#{MPLCONFIG}.building")
            FileUtils.rm_rf(building)
            _, status = Open3.capture2e({ 'MPLCONFIGDIR' => building, 'MPLBACKEND' => 'Agg' },
                                        "#{dir}/bin/python", '-c', 'import matplotlib.font_manager')
            FileUtils.mkdir_p(building) unless status.success? # no font list: runs make their own
            File.rename(building, File.join(dir, MPLCONFIG))
          end

          def run!(*command, what:)
            out, status = Open3.capture2e(*command)
            return if status.success?

            raise ConfigurationError, "run_code could not #{what}:\n#{out.lines.last(15).join}"
          end

          def check_package(package)
            name = package.to_s.strip
            return name if name.match?(PACKAGE)

            raise ArgumentError, "#{package.inspect} is not a Python package requirement like \"pandas\" or " \
                                 '"pandas>=2.2"'
          end
        end
      end
    end
  end
end
