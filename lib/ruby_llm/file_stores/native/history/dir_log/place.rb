# frozen_string_literal: true

require 'fileutils'

module RubyLLM
  module FileStores
    module Native
      module History
        class DirLog < Log
          # Where a NativeDir's history may be: a folder of its own, outside
          # the store's, that keeps no other store's history.
          module Place
            module_function

            # The history folder for +path+, made when missing, outside the
            # store's +root+: refuses one inside the store (or the store
            # inside it) with ArgumentError.
            def place(path, root)
              path = File.expand_path(path.respond_to?(:to_path) ? path.to_path : path.to_s)
              real_root = File.realpath(root)
              real = resolved(path)
              if real == real_root || real.start_with?("#{real_root}/") || real_root.start_with?("#{real}/")
                raise ArgumentError, "the history folder #{path} is inside the store's folder #{root} (or holds it): " \
                                     'give a folder outside it, such as a sibling, so code in the store cannot ' \
                                     'change its history'
              end

              FileUtils.mkdir_p(real)
              claim(real, real_root)
              real
            end

            # +path+ with its links resolved as far as it exists, before
            # anything is made there.
            def resolved(path)
              missing = []
              until File.exist?(path)
                missing.unshift(File.basename(path))
                path = File.dirname(path)
              end
              File.join(File.realpath(path), *missing)
            end

            # Writes the store's folder into a new history folder; refuses one
            # that keeps another store's history.
            def claim(folder, root)
              owner = File.join(folder, 'store')
              File.open(owner, File::WRONLY | File::CREAT | File::EXCL) { |file| file.write(root) }
            rescue Errno::EEXIST
              held = File.read(owner)
              return if held == root

              raise ArgumentError, "the history folder #{folder} keeps the history of #{held}: give each store its own"
            end
          end
        end
      end
    end
  end
end
