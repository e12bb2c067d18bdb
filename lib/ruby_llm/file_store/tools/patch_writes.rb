# frozen_string_literal: true

module RubyLLM
  class FileStore
    module Tools
      # The writing half of apply_patch (ApplyPatch includes it): the checked
      # steps written in order, each file's read recorded, and a store that
      # refuses a write part-way answered with what already changed, as
      # edit_file does.
      module PatchWrites # :nodoc:
        private

        # Writes the steps in order; a store that refuses one part-way (full,
        # read-only) gets an error naming what was already changed.
        def write_all(steps)
          done = []
          steps.each do |step|
            done << write_step(step, done)
          rescue RubyLLM::FileStoreFullError => e
            raise RubyLLM::FileStoreFullError, "#{e.message} Writing #{step.path} failed. #{changed(done)}"
          rescue RubyLLM::FileStore::ReadOnlyError, RubyLLM::FileExistsError, ArgumentError => e
            raise Refusal, "#{e.message} Writing #{step.path} failed. #{changed(done)}"
          end
          done
        end

        def changed(done)
          done.empty? ? 'No file was changed.' : "Already changed: #{done.join(', ')}."
        end

        # Writes one step, pushing onto +done+ what it changed before a
        # later part of it fails; returns how the summary names it.
        def write_step(step, done)
          case step.kind
          when :add
            write(step.path, step.content)
            "#{step.replaces ? 'replaced' : 'added'} #{step.path}"
          when :delete
            store.delete(step.path)
            store.record_read(step.path, nil)
            "deleted #{step.path}"
          else write_update(step, done)
          end
        end

        def write_update(step, done)
          hunks = " (#{step.hunks} #{step.hunks == 1 ? 'hunk' : 'hunks'})"
          if step.content
            write(step.path, step.content)
            return "updated #{step.path}#{hunks}" unless step.move_to

            done << "updated #{step.path}#{hunks}"
          end
          step.replaces ? replace_destination(step, done) : move(step)
          done.pop if step.content
          "moved #{step.path} to #{step.move_to}#{hunks if step.hunks.positive?}"
        end

        # A move onto a file the model read: write_file's rule, so the
        # destination is replaced (store.move never overwrites).
        def replace_destination(step, done)
          write(step.move_to, store.read(step.path))
          done << "replaced #{step.move_to}"
          store.delete(step.path)
          store.record_read(step.path, nil)
          done.pop
        end

        # store.move, then the moved file counts as read at its new path (the
        # patch wrote it there), whether or not the store's move carried the
        # read along.
        def move(step)
          moved = store.move(step.path, step.move_to)
          store.record_read(step.move_to, moved.digest || sha256(store.read(step.move_to)))
        end

        def write(path, content)
          file = store.write(path, content)
          store.record_read(path, file.digest || sha256(content))
          file
        end
      end
    end
  end
end
