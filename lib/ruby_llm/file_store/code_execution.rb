# frozen_string_literal: true

require 'tmpdir'
require_relative 'code_execution/result'
require_relative 'code_execution/options'
require_relative 'code_execution/environments'
require_relative 'code_execution/sandbox'
require_relative 'code_execution/snapshot'
require_relative 'code_execution/mounts'
require_relative 'code_execution/read_only_root'
require_relative 'code_execution/staging'
require_relative 'code_execution/runs'
require_relative 'code_execution/layout'
require_relative 'code_execution/read_only_writes'
require_relative 'code_execution/report'
require_relative 'code_execution/tool'
require_relative 'code_execution/chat_extension'

module RubyLLM
  class FileStore
    # Runs a model's code over a store's files, in a sandbox, and gives the
    # run_code tool that does it.
    #
    #   runner = RubyLLM::FileStore::CodeExecution.new(store, python: %w[pandas], timeout: 30)
    #   runner.run(language: 'python', code: 'print(1)').stdout  # => "1\n"
    #   runner.tool.call('language' => 'python', 'code' => '...', 'files' => ['data.csv'])
    #
    # Every run is over a tree of folders laid out store by store (see
    # Layout and Runs), each either in place or staged:
    # - A store with a local_root (RubyLLM::NativeDir) is a folder in place:
    #   the code runs in it, holding the store's lock for the run, so what
    #   it writes, changes or deletes is in the store at once.
    # - Any other store is staged: the run starts in an empty folder with
    #   the files named in +files+ copied in, and what the code created or
    #   changed is written back through the store when the run ends.
    #
    # A tree of stores (RubyLLM::FileStore::Mounts) is laid out the same,
    # with more folders: its folders in place, bound at their paths, the
    # other stores staged.
    #
    # Either way the result names the paths the run created or changed, the
    # read-before-change memory forgets them (the model reads them again
    # before editing), and after_file_write hooks receive each StoredFile.
    class CodeExecution
      include Runs
      include Report

      # The default home of Python environments: $RUBY_LLM_CODE_CACHE, else
      # ~/.cache/ruby_llm/code_execution.
      def self.default_cache_dir
        ENV.fetch('RUBY_LLM_CODE_CACHE') { File.join(Dir.home, '.cache', 'ruby_llm', 'code_execution') }
      end

      attr_reader :store, :languages, :limits, :cache_dir

      # +python+: true, false, or the packages for its virtual environment,
      # like %w[pandas matplotlib] (made once per package set and reused);
      # +ruby+ and +shell+: true or false. A language left nil is offered
      # when the machine has it; one asked for and missing raises
      # RubyLLM::ConfigurationError, as does a machine where no sandbox can
      # be made, unless +sandbox+ is false.
      #
      # Limits per run: +timeout+ seconds, +memory+ bytes, +processes+ (and
      # threads), +file_size+ bytes per file written, +output_limit+ bytes
      # kept of stdout and of stderr each (see Options::DEFAULTS). What a
      # run may leave: +files_budget+ files and folders it creates or
      # changes (hidden ones included) and +bytes_budget+ bytes of files
      # (apparent and allocated, each); past it, the rest is removed and
      # named in the result's notes.
      #
      # The memory limit holds all of a run's processes and its /tmp
      # together, in a memory cgroup; where this process can make none
      # (an unprivileged Puma or Sidekiq, often), construction raises
      # RubyLLM::ConfigurationError, unless +memory_limit+ is :per_process:
      # then each process is held to +memory+ on its own (RLIMIT_AS), up to
      # +processes+ of them, and /tmp (a tmpfs as large as +memory+) on top.
      #
      # +mounts+ (path in the folder => host path) and +skills+ (host
      # folders, or name => folder, seen at skills/<name>) are linked in
      # read-only for each run. +on_write+ is called with each StoredFile a
      # run created or changed, like the blocks given to after_file_write.
      def initialize(store, python: nil, ruby: nil, shell: nil, cache_dir: self.class.default_cache_dir,
                     mounts: {}, skills: [], sandbox: true, on_write: nil, memory_limit: :whole_run, **limits)
        raise ArgumentError, "a file store is needed, not #{store.inspect}" unless store.is_a?(RubyLLM::FileStore)

        @store = store
        @limits = Options.limits(limits)
        @cache_dir = File.expand_path(cache_dir.to_s)
        @mounts = Mounts.check(Options.mount_table(mounts, skills))
        @hooks = on_write ? [on_write] : []
        @in_place_hooks = []
        @languages = Environments.build(python:, ruby:, shell:, cache_dir: @cache_dir)
        @sandboxed = sandbox != false
        @sandbox = Sandbox.new(enabled: @sandboxed, limits: @limits, memory_limit:,
                               read_only: @languages.values.flat_map(&:read_only))
      end

      # The seconds a run may take.
      def timeout = limits[:timeout]

      # The memory a run may use, in bytes.
      def memory = limits[:memory]

      # Whether runs are sandboxed (false only when asked with sandbox: false).
      def sandboxed? = @sandboxed

      # Whether code runs in the store's own folder (else in a staged copy);
      # for a tree of stores, in its default store's folder (see Layout). A
      # read-only store's folder is bound read-only in the sandbox; without
      # a sandbox nothing could hold it so, and the run is staged.
      def in_place? = layout.in_place?

      # How a run lays out its folder (a Layout): a tree of stores' several
      # folders, a single store's one.
      def layout = Layout.new(store, sandboxed: @sandboxed, inner: @mounts.map(&:inside))

      # Registers a block called with each StoredFile a run created or changed.
      def after_file_write(&block)
        raise ArgumentError, 'after_file_write needs a block' unless block

        @hooks << block
        self
      end

      # Registers a block called with each StoredFile a run wrote in a
      # folder store in place, which no store's write saw (a chat hears of
      # the rest through the store: see ChatExtension).
      def after_in_place_write(&block)
        raise ArgumentError, 'after_in_place_write needs a block' unless block

        @in_place_hooks << block
        self
      end

      # The run_code tool over this runner.
      def tool = Tool.for(self)

      # Runs +code+ in +language+ and returns a Result. +files+ names the
      # files and folders to copy in for a store that is not a folder (one
      # that is has all its files there already). Raises Tools::Refusal or
      # ArgumentError for what the model can fix; the tool answers those as
      # { error: }.
      def run(language:, code:, files: nil)
        lang = @languages[language.to_s]
        unless lang
          raise Tools::Refusal, "language must be one of #{@languages.keys.join(', ')}, not #{language.inspect}"
        end
        raise Tools::Refusal, 'code is required: the program to run' unless code.is_a?(String) && !code.strip.empty?

        tree = layout
        copied = tree.staged? ? tree.to_copy(Staging.resolve(store, files)) : []
        FileStores::Native::History.acting(:code) { finish(in_scratch(lang, code, copied, tree)) }
      end

      # The languages, the store and whether runs are sandboxed, for the console.
      def inspect
        "#<#{self.class.name} #{@languages.keys.join(', ')} on #{store.inspect}#{' (no sandbox)' unless @sandboxed}>"
      end

      private

      # Runs +code+ from a temporary folder, removed after; +copied+: the
      # staged stores' files to copy in.
      def in_scratch(lang, code, copied, tree)
        tmp = Dir.mktmpdir('ruby_llm_run_code', Staging.scratch_dir(copied, memory_capped: @sandbox.memory_capped?))
        code_file = File.join(tmp, "main.#{lang.extension}")
        File.write(code_file, code)
        run_tree(lang, code_file, tmp, tree, copied)
      ensure
        remove_scratch(tmp) if tmp
      end

      # Code chose the tree in +tmp+: it is removed without recursion or
      # following a link. A folder left behind beats a lost result.
      def remove_scratch(tmp)
        FileStores::Native::RunTree.remove(File.dirname(tmp), File.basename(tmp))
      rescue StandardError
        nil
      end

      # Stands in the read-before-change memory for a version the model read
      # and code then changed: never a digest, so edit_file says it changed.
      CHANGED_BY_RUN = 'changed by run_code'

      # The read-before-change memory marks what the model read and the run
      # changed as changed, and forgets the rest of what it touched; the
      # hooks hear of each file it created or changed.
      def finish(result)
        result.changed.each { |path| store.record_read(path, CHANGED_BY_RUN) if store.read_digest(path) }
        store.forget_reads(result.created + result.deleted)
        result.files.each { |file| @hooks.each { |hook| hook.call(file) } } unless @hooks.empty?
        in_place_written(result).each { |file| @in_place_hooks.each { |hook| hook.call(file) } }
        result
      end

      def in_place_written(result)
        return [] if @in_place_hooks.empty?

        result.files.select { |file| result.written_in_place.include?(file.path) }
      end
    end
  end
end
