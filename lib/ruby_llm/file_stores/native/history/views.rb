# frozen_string_literal: true

module RubyLLM
  module FileStores
    module Native
      module History
        # What an owner's view of a store saw at a path: the versions of every
        # file in the view, its owner's and the shared ones, never another
        # owner's. HistoryMethods#versions lists them; Rewind asks copy? of
        # what an owner's view had at a checkpoint.
        module Views
          module_function

          # The versions the view saw, oldest first, from its owner's (+own+)
          # and the shared file's (+shared+), each oldest first: a shared
          # version while the owner had no copy of their own (a version's id
          # is unique in its log, so merged by id they are in their order).
          # An owner's version that only says the view showed the shared
          # version listed just before it (the baseline of the owner's first
          # change, a catch-up) is left out.
          def records(own, shared)
            copy = false
            latest = nil # the newest shared version so far
            (own + shared).sort_by(&:id).each_with_object([]) do |record, view|
              if record.owner.nil?
                latest = record
                view << record unless copy
              else
                copy = copy?(record, latest)
                view << record unless !copy && latest && view.last.equal?(latest) && latest.digest == record.digest
              end
            end
          end

          # Whether the owner's +record+ is of a copy of their own, rather
          # than the view showing the shared file (+latest+, the shared
          # file's newest version before it, nil when none is kept) or
          # nothing: an owner's version holds what the view showed, so one
          # with the shared file's bytes then is the shared file showing
          # through (the owner's first change keeps it as a baseline; a
          # rewind to before that change deletes the owner's copy so).
          def copy?(record, latest)
            !record.digest.nil? && record.digest != latest&.digest
          end

          # copy? of the owner's +record+ in +log+, against the shared
          # version of its path newest before it.
          def copy_in?(log, record)
            latest = log.records([nil, record.path]).reverse_each.find { |shared| shared.id < record.id }
            copy?(record, latest)
          end
        end
      end
    end
  end
end
