# frozen_string_literal: true

module RubyLLM
  class FileStore
    class ActiveStorage < FileStore
      # What write_many (BatchWrite) does when a batch cannot be saved
      # whole: a batch the database refused is written again one file at a
      # time, within the deadline, so only the files at fault are unsaved;
      # and why a file was not saved, in words the model can act on.
      # Included by the store, with BatchWrite.
      module BatchFallback
        private

        # A batch the database refused: each file on its own, none started
        # after +deadline+.
        def one_by_one(entries, deadline)
          saved = []
          unsaved = []
          error = nil
          entries.each do |path, bytes|
            if out_of_time?(deadline)
              unsaved << path
              error ||= FileStores::Native::ManyWrites::OUT_OF_TIME
              next
            end
            saved << write(path, bytes)
          rescue StandardError => e
            unsaved << path
            error ||= unsaved_reason(e)
          end
          [saved, unsaved, error]
        end

        # Why a file was not saved: the service's trouble as the tools say
        # it, else the error's message.
        def unsaved_reason(error)
          Tools::ServiceError.match?(error) ? Tools::DatabaseError.message_for(error) : error.message
        end
      end
    end
  end
end
