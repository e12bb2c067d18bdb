# frozen_string_literal: true

require 'digest'
require 'find'
require 'json'
require 'open3'
require 'rbconfig'

# Helpers shared by the guarantee suites (spec/guarantees): snapshots of what
# lies outside a store, the known refusals of the tools, and child processes
# whose peak memory is measured.
module GuaranteeHelpers
  # Long runs (10 s of concurrency instead of 3, more crash rounds) when set.
  LONG = ENV['GUARANTEES_LONG'] == '1'

  # Every refusal a tool gives for an ordinary race between models: reading
  # before changing, a file another call deleted or changed.
  KNOWN_REFUSALS = [
    /\A\S+ changed since you read it\. Read it again\.\z/,
    /\AYou have not read \S+\. Read it with read_file first\.\z/,
    /\A\S+ does not exist\.?\z/,
    /\AEdit \d+: \S+ does not exist\. Create it with write_file\.\z/,
    /\AEdit \d+: old_text does not appear in \S+\z/,
    /\A\S+ already exists, and a move never overwrites: choose another new_path, or delete \S+ first if you mean to /,
    /\A\S+ does not exist\. list_files shows the files and folders there are\.\z/
  ].freeze

  module_function

  # Everything under +dir+ (except the paths in +skip+), as path => what it
  # is: type, size, mtime and sha256 for files, target for links. Never
  # follows links.
  def snapshot(dir, skip: [])
    result = {}
    Find.find(dir) do |path|
      Find.prune if skip.include?(path)
      st = File.lstat(path)
      result[path] =
        if st.symlink?
          [:link, File.readlink(path)]
        elsif st.file?
          [:file, st.size, st.mtime.to_r, Digest::SHA256.file(path).hexdigest]
        else
          [st.ftype.to_sym, st.mtime.to_r]
        end
    end
    result
  end

  def known_refusal?(message)
    KNOWN_REFUSALS.any? { |pattern| pattern.match?(message) }
  end

  # Runs spec/scripts/<script> in a fresh Ruby with +args+, and returns the
  # JSON object it prints last, plus :status and :output. +memory_cap+ bytes
  # of address space keep a regression from taking the machine's memory.
  def run_script(script, *args, memory_cap: 3 << 30)
    path = File.expand_path("../scripts/#{script}", __dir__)
    output, status = Open3.capture2e(RbConfig.ruby, path, *args.map(&:to_s),
                                     rlimit_as: memory_cap)
    json = output.lines.reverse.find { |line| line.start_with?('{') }
    (json ? JSON.parse(json, symbolize_names: true) : {}).merge(status:, output:)
  end

  # run_script for a script that must succeed (the hostile-file cases):
  # raises with the end of its output when it did not.
  def run_case(script, *args)
    outcome = run_script(script, *args)
    raise "#{args.first} failed:\n#{outcome[:output][-2000..] || outcome[:output]}" unless outcome[:status].success?

    outcome
  end
end
