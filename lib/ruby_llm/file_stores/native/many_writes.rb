# frozen_string_literal: true

module RubyLLM
  module FileStores
    module Native
      # What every store has for many files at once: write_many, which a
      # run's copy-back uses, and forget_reads. These defaults go one file
      # at a time; a store where each call costs a round trip to a database
      # (Active Storage) overrides them. Included by StoreMethods.
      module ManyWrites
        # Why write_many left files unsaved when its deadline passed.
        OUT_OF_TIME = 'The time limit ran out before these files were saved: make fewer files, or run again ' \
                      'for the rest.'

        # Writes many files, as a run's copy-back does: the block gives the
        # content of each of +paths+ (a String or an IO, closed after its
        # write) when its turn comes.
        # After +deadline+ (a Process::CLOCK_MONOTONIC time) no further file
        # is started. Returns [saved StoredFiles, unsaved paths, the first
        # reason one was not saved]: a file the store refuses, for whatever
        # reason, is named unsaved, never raised. This default writes them
        # one by one; a store where each write costs a round trip (Active
        # Storage) saves them in batches.
        def write_many(paths, deadline: nil)
          saved = []
          unsaved = []
          error = nil
          paths.each_with_index do |path, index|
            if deadline && Process.clock_gettime(Process::CLOCK_MONOTONIC) > deadline
              unsaved.concat(paths.drop(index))
              error ||= OUT_OF_TIME
              break
            end
            saved << write_closing(path, yield(path))
          rescue StandardError => e
            unsaved << path
            error ||= e.message
          end
          [saved, unsaved, error]
        end

        # Forgets what the model read of every one of +paths+, as
        # record_read(path, nil) for each (a run created or deleted them);
        # a store that keeps reads in a database does it in one statement.
        def forget_reads(paths)
          paths.each { |path| record_read(path, nil) }
        end

        private

        # write, then closes +content+ when it is an IO.
        def write_closing(path, content)
          write(path, content)
        ensure
          content.close if content.respond_to?(:close) && !content.is_a?(String)
        end

        # Forgets the reads of +paths+ that the store's memory holds.
        def forget_reads_in_memory(paths)
          state = file_store_state
          state.fetch(:mutex).synchronize do
            reads = state.fetch(:reads)
            paths.each { |path| reads.delete(RubyLLM::FileStore.path(path)) }
          end
        end
      end
    end
  end
end
