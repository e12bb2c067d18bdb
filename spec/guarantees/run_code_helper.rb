# frozen_string_literal: true

require 'find'
require_relative '../ruby_llm/file_store/code_execution/code_execution_helper'

# Helpers of the run_code guarantee suites: shell code, both kinds of store,
# and a look at everything a run left in a folder.
module RunCodeHelper
  # A runner with the shell only (quick to start), fast limits and +options+.
  def shell_runner(store, **options)
    runner_for(store, python: false, ruby: false, shell: true, **options)
  end

  def shell(runner, code, files: nil)
    runner.run(language: 'shell', code:, files:)
  end

  # Every entry below +root+, hidden ones too, as [relative path, lstat];
  # never follows a link.
  def everything(root)
    found = []
    Find.find(root) do |path|
      next if path == root

      found << [path.delete_prefix("#{root}/"), File.lstat(path)]
    end
    found
  end

  # Makes +levels+ nested folders "a" below +dir+ (relative steps, so past
  # PATH_MAX), with x.txt at the bottom, in a child python3.
  def deep_tree(dir, levels)
    script = "import os, sys\nos.chdir(sys.argv[1])\nfor _ in range(#{levels}):\n    " \
             "os.mkdir('a')\n    os.chdir('a')\nopen('x.txt', 'w').write('x')"
    system('python3', '-c', script, dir, exception: true)
  end
end
