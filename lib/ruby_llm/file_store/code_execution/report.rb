# frozen_string_literal: true

module RubyLLM
  class FileStore
    class CodeExecution
      # The Result of a run, in words the model acts on.
      module Report # :nodoc:
        REMOVED = {
          budget: 'Not kept, past what one run may leave (%<budget>s)',
          name: 'Removed, with names the files cannot hold (control characters, or not UTF-8)',
          too_deep: 'Removed, folders nested deeper than a file path may go',
          too_long: 'Removed, with paths past what a file path may be (64 names, 4,000 bytes) once the ' \
                    "mount's name is in front",
          too_long_kept: "Changed, but left out: past what a file path may be once the mount's name is in front, " \
                         'no tool reaches them',
          special: 'Removed, special files (FIFOs, sockets) that no file tool can read, write or delete'
        }.freeze

        private

        def result(lang, outcome, mounts, swept:, created:, changed:, deleted:, unsaved:, error:, trouble:, files:,
                   in_place:)
          Result.new(language: lang.name, exit_status: outcome.exit_status, signal: outcome.signal,
                     stopped: stopped(outcome), stdout: outcome.stdout.to_s, stderr: outcome.stderr.to_s,
                     created:, changed:, deleted:, unsaved_files: unsaved, files_error: error,
                     shadowed_mounts: mounts.shadowed,
                     notes: notes(outcome, mounts, changed, swept) + Array(trouble), files:,
                     written_in_place: in_place)
        end

        # What the result of a run in a read-only store's folder, or in its
        # staged copy, says.
        READ_ONLY = "The files are read-only: the code could change nothing in them (a write fails with 'Read-only " \
                    "file system'). Write scratch files in /tmp, or your own copies with write_file elsewhere, such " \
                    'as notes/.'

        CONFLICTS = {
          changed: 'changed in the files while the code ran (another edit or write)',
          deleted: 'deleted from the files while the code ran',
          created: 'created in the files by someone else while the code ran'
        }.freeze

        # Files a staged run did not save because the store's file changed
        # during the run: the store's version stays, and the model is told
        # to redo its change on it.
        def conflict_notes(conflicts)
          conflicts.group_by(&:last).map do |why, rows|
            paths = rows.map(&:first)
            "#{paths.join(', ')}: #{CONFLICTS.fetch(why)}, so the run's version was not saved and the files keep " \
              "theirs. Read #{paths.size == 1 ? 'it' : 'them'} again and make your change on what is there now."
          end
        end

        def notes(outcome, mounts, changed, swept)
          notes = []
          if outcome.processes_refused
            notes << "The code tried to run more than #{limits[:processes]} processes and threads at once, the " \
                     'limit; the extra ones failed to start.'
          end
          unless mounts.shadowed.empty?
            notes << "The folder has its own #{mounts.shadowed.join(', ')}, so the run saw that instead of the mount."
          end
          unless swept.links.empty?
            notes << "Symbolic links are not files of the store, which ignores them: #{swept.links.join(', ')}."
          end
          notes.concat(sweep_notes(swept))
          notes << "Read #{changed.join(', ')} again before changing it with edit_file." unless changed.empty?
          notes
        end

        # What the sweep after the run removed, left unwalked or changed.
        def sweep_notes(swept)
          notes = swept.removed.group_by(&:last).map do |why, rows|
            format("#{REMOVED.fetch(why)}: %<paths>s.", budget: budget_words, paths: rows.map(&:first).join(', '))
          end
          more = swept.removed_count - swept.removed.size
          notes << "#{more} more were removed." if more.positive?
          notes.concat(tree_notes(swept))
        end

        def tree_notes(swept)
          notes = []
          unless swept.too_deep.empty?
            notes << "Folders nested deeper than a file path may go were not checked: #{swept.too_deep.join(', ')}."
          end
          unless swept.stripped.empty?
            notes << "Setuid, setgid and world-write permissions were taken from #{swept.stripped.join(', ')}."
          end
          unless swept.unreadable.empty?
            notes << 'These could not be opened even after their permissions were given back, so were not ' \
                     "checked: #{swept.unreadable.join(', ')}. Remove them with run_code or delete_file."
          end
          notes
        end

        def budget_words
          "#{limits[:files_budget]} files and folders and #{mb(limits[:bytes_budget])} of files it creates or " \
            'changes, hidden ones included'
        end

        def stopped(outcome)
          if outcome.timed_out
            "Stopped after #{limits[:timeout]} seconds: the time limit."
          elsif outcome.out_of_memory
            "Stopped: the code used more than #{mb(limits[:memory])} of memory, the limit."
          elsif outcome.signal == 25
            "Stopped: a file grew past #{mb(limits[:file_size])}, the limit for one file."
          elsif outcome.signal
            "Stopped by signal #{outcome.signal}."
          end
        end

        def mb(bytes) = "#{bytes / (1024 * 1024)} MB"
      end
    end
  end
end
