# frozen_string_literal: true

module RubyLLM
  module FileStores
    module Native
      module History
        # What an owner's view of a store saw at a path: the versions of every
        # file in the view, its owner's and the shared ones, never another
        # owner's. HistoryMethods#versions lists them.
        module Views
          module_function

          # The versions the view saw, oldest first, from its owner's (+own+)
          # and the shared file's (+shared+), each oldest first: a shared
          # version while the owner had no copy of their own (a version's id
          # is unique in its log, so merged by id they are in their order).
          # The owner's first change of a shared file keeps what the view
          # showed as the owner's first version (a baseline): it is the
          # shared version listed already, so it is left out.
          def records(own, shared)
            copy = nil
            (own + shared).sort_by(&:id).each_with_object([]) do |record, view|
              if record.owner.nil?
                view << record unless copy&.digest
              else
                view << record unless shown?(view.last, record)
                copy = record
              end
            end
          end

          # Whether the owner's +record+ is the baseline of +last+, the shared
          # version the view showed before it.
          def shown?(last, record)
            record.baseline && !last.nil? && last.owner.nil? && last.digest == record.digest
          end
        end
      end
    end
  end
end
