# frozen_string_literal: true

module RubyLLM
  class FileStore
    module Tools
      # The paths of apply_patch's files (ApplyPatch includes it): each one
      # checked as it is planned (not hidden, named once, read before it is
      # changed, not a folder), then all of them placed in the tree as the
      # patch leaves it at each step, before the first write: a file the
      # patch makes must not go through a file (the store's, unless an
      # earlier step deleted or moved it away, or one the patch made), nor
      # stand where the patch has made a folder (a file in it). A store would
      # refuse either part-way, after earlier files were written.
      module PatchPaths # :nodoc:
        private

        # The store path for +raw+, refused when hidden or named twice.
        def patch_path(raw, seen)
          path = path_argument(raw)
          if FileStores::Native.hidden_path?(path)
            raise Refusal, "#{path} is hidden (a name in it starts with a dot): the file tools do not change " \
                           'hidden files. Nothing was changed.'
          end
          if seen.key?(path)
            raise Refusal, "#{path} appears twice in the patch: give all its changes in one *** Update File " \
                           'section. Nothing was changed.'
          end

          seen[path] = true
          path
        end

        # The file at +path+ when there is one, refused unless the model
        # read it at this version, with read_file's words (+what+ names the
        # patch's line for a folder).
        def existing(path, what)
          if store[path].nil? && (store.list(path).any? || mount_folder?(path) || empty_folder_on_disk?(path))
            raise Refusal, "*** #{what}: #{path} is a folder; the patch changes files. Nothing was changed."
          end

          check_read_before_change(path)
        end

        # Refuses the first step whose new file has no place, with a message
        # naming it and what is in the way.
        def check_paths(steps)
          made = {} # files the patch has made so far
          folders = {} # the folders those files are in
          gone = {} # the store's files the patch has deleted or moved away so far
          steps.each do |step|
            target, what = new_file(step)
            # A moved file is still in the way of its own new path: a store
            # cannot move a file into itself.
            place(target, what, made, gone, folders) if target
            gone[step.path] = true if step.kind == :delete || step.move_to
          end
        end

        def place(target, what, made, gone, folders)
          check_way(target, what, made, gone)
          check_folder(target, what, folders)
          made[target] = true
          ancestors(target).each { |folder| folders[folder] = target }
        end

        # The file +step+ makes and the patch line that names it, or nil.
        def new_file(step)
          return [step.path, 'Add File'] if step.kind == :add

          [step.move_to, 'Move to'] if step.move_to
        end

        def check_way(target, what, made, gone)
          file = ancestors(target).find { |folder| made[folder] || (!gone[folder] && store[folder]) }
          return unless file

          whose = made[file] ? 'a file this patch makes' : 'a file'
          raise Refusal, "*** #{what}: #{target} goes through #{file}, which is #{whose}, not a folder. Choose " \
                         "another path, or delete or move #{file} earlier in the patch. Nothing was changed."
        end

        def check_folder(target, what, folders)
          inside = folders[target]
          return unless inside

          raise Refusal, "*** #{what}: #{target} is a folder once this patch makes #{inside}; the patch changes " \
                         'files. Choose another path. Nothing was changed.'
        end

        # Whether +path+ is a folder on disk that holds no file: a NativeDir
        # keeps empty folders (the other stores have folders only as parts of
        # their files' paths), and writes no file where one is.
        def empty_folder_on_disk?(path)
          holder = store
          holder, path = holder.store_for(path) while holder.is_a?(FileStore::Mounts)
          root = holder.local_root or return false
          File.lstat(File.join(root, path)).directory?
        rescue SystemCallError
          false
        end

        # The folders on the way to +path+, from the top: a/b/c gives a, a/b.
        def ancestors(path)
          parts = path.split('/')
          Array.new(parts.size - 1) { |n| parts.first(n + 1).join('/') }
        end
      end
    end
  end
end
