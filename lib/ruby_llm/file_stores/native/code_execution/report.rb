# frozen_string_literal: true

module RubyLLM
  class FileStore
    class CodeExecution
      # The Result of a run, in words the model acts on.
      module Report
        private

        def result(lang, outcome, mounts, created:, changed:, deleted:, unsaved:, error:, files:, links:)
          Result.new(language: lang.name, exit_status: outcome.exit_status, signal: outcome.signal,
                     stopped: stopped(outcome), stdout: outcome.stdout.to_s, stderr: outcome.stderr.to_s,
                     created:, changed:, deleted:, unsaved_files: unsaved, files_error: error,
                     shadowed_mounts: mounts.shadowed, notes: notes(outcome, mounts, changed, links), files:)
        end

        def notes(outcome, mounts, changed, links)
          notes = []
          if outcome.processes_refused
            notes << "The code tried to run more than #{limits[:processes]} processes and threads at once, the " \
                     'limit; the extra ones failed to start.'
          end
          unless mounts.shadowed.empty?
            notes << "The folder has its own #{mounts.shadowed.join(', ')}, so the run saw that instead of the mount."
          end
          unless links.empty?
            notes << "Symbolic links are not files of the store, which ignores them: #{links.join(', ')}."
          end
          notes << "Read #{changed.join(', ')} again before changing it with edit_file." unless changed.empty?
          notes
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
