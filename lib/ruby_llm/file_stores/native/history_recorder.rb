# frozen_string_literal: true

module RubyLLM
  module FileStores
    module Native
      # The one place a change becomes a version: RubyLLM::FileStore puts it
      # in front of every subclass as the subclass is defined (behind
      # ReadOnlyGuard, so a refused change records nothing), around write,
      # delete, delete_folder, move and write_many. On a store with history
      # (HistoryMethods) it holds the store's lock around the change and its
      # versions, so two writers give two versions in their order; a call
      # made inside another one on the same history (a copying move's
      # writes, delete_folder's deletes) is the outer call's, recorded once.
      module HistoryRecorder
        ACTIVE = :ruby_llm_file_store_history_active
        private_constant :ACTIVE

        def write(path, content, ...)
          return super unless history_recording?

          path = RubyLLM::FileStore.path(path)
          history_change([path], written: content) { super }
        end

        def delete(path, ...)
          return super unless history_recording?

          history_change([RubyLLM::FileStore.path(path)]) { super }
        end

        def delete_folder(folder, ...)
          return super unless history_recording?

          with_lock { history_change(list(RubyLLM::FileStore.path(folder)).map(&:path)) { super } }
        end

        def move(path, new_path, ...)
          return super unless history_recording?

          with_lock do
            from, to = CopyMove.paths(path, new_path)
            sources = self[from] ? [from] : list(from).map(&:path)
            targets = sources.map { |source| CopyMove.new_path_of(source, from, to) }
            history_change(sources + targets, moved: [sources, targets]) { super }
          end
        end

        def write_many(paths, ...)
          return super unless history_recording?

          valid = paths.filter_map do |path|
            RubyLLM::FileStore.path(path)
          rescue ArgumentError
            nil
          end
          with_lock { history_change(valid) { super } }
        end

        # Runs the block as the change of +log+'s store in this thread or
        # fiber: the calls it makes on the same history are not recorded
        # again.
        def self.active(log)
          active = (Thread.current[ACTIVE] ||= [])
          active.push(log)
          yield
        ensure
          active.pop
        end

        # Whether +log+ is recording a change in this thread or fiber.
        def self.active?(log)
          Thread.current[ACTIVE]&.any? { |each| each.equal?(log) } || false
        end

        private

        def history_recording?
          log = history_log
          !log.nil? && !HistoryRecorder.active?(log) && !History.unrecorded?
        end
      end
    end
  end
end
