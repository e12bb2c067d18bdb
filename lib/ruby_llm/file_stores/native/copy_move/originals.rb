# frozen_string_literal: true

module RubyLLM
  module FileStores
    module Native
      module CopyMove
        # The originals of a copy-then-delete move (CopyMove#move within a
        # store, a Mounts move between two stores): deleted once copied, or
        # put back as they were.
        module Originals
          module_function

          # Deletes +sources+ from +from+ once +copies+ of them are in +to+
          # (the same store, or another). When one cannot be deleted, the
          # ones already gone are written back from their copies and every
          # copy is deleted, so the source is as it was, then the error is
          # raised; a copy that cannot be put back stays where it is, so no
          # file is lost and none is left twice. A block given deletes each
          # file instead.
          def delete(from, sources, to, copies)
            sources.each_with_index do |file, index|
              block_given? ? yield(file) : from.delete(file.path)
            rescue StandardError
              put_back(from, sources, to, copies, index)
              raise
            end
          end

          # Undoes the first +failed+ deletes of +sources+ (and the failed
          # one, when its file went all the same): each is written back from
          # its copy, then every copy still there is deleted, each as far as
          # it goes.
          def put_back(from, sources, to, copies, failed)
            gone = failed + (absent?(from, sources[failed].path) ? 1 : 0)
            restored = sources.first(gone).zip(copies).take_while do |file, copy|
              from.write(file.path, to.read(copy.path), content_type: file.content_type)
              true
            rescue StandardError
              false
            end
            copies.drop(gone).each { |copy| quietly { to.delete(copy.path) } }
            restored.each { |_, copy| quietly { to.delete(copy.path) } }
          end

          def absent?(store, path)
            store[path].nil?
          rescue StandardError
            false
          end

          def quietly
            yield
          rescue StandardError
            nil
          end
        end
      end
    end
  end
end
