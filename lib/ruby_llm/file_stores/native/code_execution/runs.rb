# frozen_string_literal: true

require 'etc'
require 'fileutils'

module RubyLLM
  class FileStore
    class CodeExecution
      # The two ways a run goes, chosen by the store: in its folder, or in a
      # staged copy of the files the model named.
      module Runs
        private

        # In the store's folder, under its lock; what changed is found by
        # walking the folder before and after.
        def run_in_place(lang, code_file, tmp)
          root = store.local_root
          store.with_lock do
            before = Snapshot.take(root)
            outcome, mounts = execute(lang, code_file, root, tmp)
            after = Snapshot.take(root, skip: mounts.paths)
            created, changed, deleted = before.diff(after)
            unsaved, error = over_capacity(created)
            created -= unsaved
            result(lang, outcome, mounts, created:, changed:, deleted:, unsaved:, error:,
                                          files: (created + changed).filter_map { |path| store[path] },
                                          links: after.links - before.links)
          end
        end

        # In an empty folder with the named files copied in; what the run
        # created or changed is written back through the store.
        def run_staged(lang, code_file, tmp, files)
          folder = File.join(tmp, 'files')
          Dir.mkdir(folder)
          Staging.copy_in(store, folder, files)
          before = Snapshot.take(folder)
          outcome, mounts = execute(lang, code_file, folder, tmp)
          after = Snapshot.take(folder, skip: mounts.paths)
          created, changed, = before.diff(after)
          saved, unsaved, error = Staging.save(store, folder, created + changed)
          kept = saved.map(&:path)
          result(lang, outcome, mounts, created: created & kept, changed: changed & kept, deleted: [],
                                        unsaved:, error:, files: saved, links: after.links)
        end

        def execute(lang, code_file, folder, tmp)
          mounts = Mounts.new(folder, @mounts, links: !@sandboxed)
          begin
            bound = mounts.setup
            home_files(lang, tmp) unless @sandboxed
            outcome = @sandbox.run([*lang.command, @sandbox.code_path(code_file)],
                                   folder:, code: code_file, mounts: bound, home_files: lang.home_files,
                                   env: environment(lang, folder, tmp))
          ensure
            mounts.teardown
          end
          [outcome, mounts]
        end

        # Without a sandbox, home is the run's temporary folder: the files a
        # language keeps there are copied in.
        def home_files(lang, home)
          lang.home_files.each do |inside, host|
            FileUtils.mkdir_p(File.dirname(File.join(home, inside)))
            FileUtils.cp(host, File.join(home, inside))
          end
        end

        # The whole environment of a run: nothing of this process's.
        def environment(lang, folder, tmp)
          home = @sandboxed ? '/tmp' : tmp
          threads = [Etc.nprocessors, 8].min.to_s
          {
            'PATH' => [*lang.path, '/usr/local/bin', '/usr/bin', '/bin'].join(':'), 'HOME' => home,
            'TMPDIR' => home, 'LANG' => 'C.UTF-8', 'PYTHONPATH' => @sandbox.folder_path(folder),
            'MPLCONFIGDIR' => "#{home}/.matplotlib", 'OMP_NUM_THREADS' => threads,
            'OPENBLAS_NUM_THREADS' => threads, 'MKL_NUM_THREADS' => threads
          }.merge(lang.env)
        end

        # A folder store with a cap: the files the run created that do not
        # fit are removed, largest first, and named as unsaved.
        def over_capacity(created)
          cap = store.respond_to?(:max_bytes) && store.max_bytes
          total = cap && !created.empty? ? store.total_size : 0
          return [[], nil] unless cap && total > cap

          unsaved = largest_first(created).take_while do |path, size|
            next false if total <= cap

            store.delete(path) # through the store: never through a link the run left behind
            total -= size
          end
          [unsaved.map(&:first), "This chat's files are full: delete or overwrite files. The limit is #{cap} bytes."]
        end

        def largest_first(paths)
          paths.map { |path| [path, store[path]&.byte_size.to_i] }.sort_by { |path, size| [-size, path] }
        end
      end
    end
  end
end
