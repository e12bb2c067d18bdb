# frozen_string_literal: true

module RubyLLM
  module FileStores
    module Native
      module Glue
        # Notices what a store writes while a chat's tool runs, for
        # after_file_write: the store is tapped once (its singleton class
        # gets a write that reports the file), and a chat collects what is
        # written inside capture, in the thread or fiber running the tool.
        # Writes outside a capture are not collected.
        module WriteTap
          KEY = :ruby_llm_file_stores_native_writes
          private_constant :KEY

          # Reports each written file to the capture running in this fiber.
          module Tap
            def write(...)
              file = super
              Thread.current[KEY]&.push(file)
              file
            end
          end

          module_function

          # Taps +store+ (once). A frozen store cannot be tapped, and its
          # writes are not collected.
          def attach(store)
            singleton = store.singleton_class
            singleton.prepend(Tap) unless singleton.include?(Tap)
            store
          rescue FrozenError, TypeError
            store
          end

          # Runs the block and returns its value and the files written by
          # tapped stores meanwhile, the last write of each path once.
          def capture
            outer = Thread.current[KEY]
            files = []
            Thread.current[KEY] = files
            result = yield
            [result, files.reverse.uniq(&:path).reverse]
          ensure
            Thread.current[KEY] = outer
          end
        end
      end
    end
  end
end
