# frozen_string_literal: true

require 'json'
require 'open3'
require 'rbconfig'
require_relative 'environments/python_env'

module RubyLLM
  class FileStore
    class CodeExecution
      # The languages a runner offers, each found (and for Python with
      # packages, its virtual environment made) once, at construction, so a
      # missing interpreter or package is the caller's error, not the model's.
      module Environments # :nodoc:
        # One language: the command before the code file, the code file's
        # extension, the host folders it needs read-only, and its environment.
        Language = Struct.new(:name, :command, :extension, :read_only, :env, :path, :home_files, keyword_init: true)

        SYSTEM = %r{\A/(usr|bin|sbin|lib|lib32|lib64|libx32|etc)(/|\z)}
        private_constant :SYSTEM

        module_function

        # { 'python' => Language, 'ruby' => ..., 'shell' => ... } for the
        # options: nil (the default) offers a language when the machine has
        # it, true or a list of packages (Python) requires it, false leaves it out.
        def build(python:, ruby:, shell:, cache_dir:)
          langs = {}
          add(langs, 'python', python) { python_language(python.is_a?(Array) ? python : [], cache_dir) }
          add(langs, 'ruby', ruby) { ruby_language }
          add(langs, 'shell', shell) { shell_language }
          raise ArgumentError, 'run_code needs at least one language: python, ruby or shell' if langs.empty?

          langs
        end

        def add(langs, name, option)
          return if option == false

          unless option.nil? || option == true || (name == 'python' && option.is_a?(Array))
            raise ArgumentError, "#{name}: must be true, false#{', or a list of packages' if name == 'python'}, " \
                                 "not #{option.inspect}"
          end

          langs[name] = yield
        rescue ConfigurationError
          raise unless option.nil?
        end

        def python_language(packages, cache_dir)
          info = python_info
          read_only = [info.fetch('base_prefix')]
          command = info.fetch('executable')
          bin = nil
          home_files = {}
          unless packages.empty?
            venv = PythonEnv.for(info, packages, cache_dir)
            read_only << venv
            bin = "#{venv}/bin"
            command = "#{bin}/python"
            home_files = PythonEnv.home_files(venv)
          end
          Language.new(name: 'python', command: [command], extension: 'py', read_only: outside_system(read_only),
                       path: [bin].compact, home_files:,
                       env: { 'PYTHONDONTWRITEBYTECODE' => '1', 'PYTHONUNBUFFERED' => '1', 'MPLBACKEND' => 'Agg',
                              'PYTHONNOUSERSITE' => '1', 'VIRTUAL_ENV' => bin && File.dirname(bin) }.compact)
        end

        def ruby_language
          ruby = RbConfig.ruby
          raise ConfigurationError, "Ruby is not at #{ruby}" unless File.executable?(ruby)

          gem_dirs = (ENV['GEM_PATH'].to_s.split(':') + gem_paths).select { |dir| File.directory?(dir) }
          Language.new(name: 'ruby', command: [ruby], extension: 'rb',
                       read_only: outside_system([RbConfig::CONFIG['prefix'], *gem_dirs]), env: {}, path: [],
                       home_files: {})
        end

        def shell_language
          shell = %w[/bin/bash /usr/bin/bash /bin/sh].find { |path| File.executable?(path) }
          raise ConfigurationError, 'run_code found no shell (bash or sh) for shell code' unless shell

          Language.new(name: 'shell', command: [shell], extension: 'sh', read_only: [], env: {}, path: [],
                       home_files: {})
        end

        def gem_paths
          defined?(Gem) ? Gem.path : []
        end

        # The real interpreter behind python3 on PATH (through shims such as
        # pyenv's), asked once per process.
        def python_info
          @python_info ||= begin
            out, status = Open3.capture2('python3', '-c', 'import json,sys; print(json.dumps({"executable": ' \
                                                          'sys.executable, "base_prefix": sys.base_prefix, ' \
                                                          '"version": "%d.%d" % sys.version_info[:2]}))')
            raise ConfigurationError, 'python3 does not run here' unless status.success?

            JSON.parse(out)
          rescue Errno::ENOENT
            raise ConfigurationError, 'run_code needs python3 for Python code and it is not on PATH: install ' \
                                      'python3, or pass python: false'
          end
        end

        def outside_system(dirs)
          dirs.compact.select { |dir| File.exist?(dir) }.map { |dir| File.realpath(dir) }
              .reject { |dir| dir.match?(SYSTEM) || dir == '/' }.uniq
        end
      end
    end
  end
end
