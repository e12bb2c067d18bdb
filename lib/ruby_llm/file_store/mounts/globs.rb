# frozen_string_literal: true

module RubyLLM
  class FileStore
    class Mounts < FileStore
      # A search's glob as each store of a tree takes it. A glob without a
      # slash matches file names anywhere, in every store alike; one with a
      # slash matches paths inside the searched folder, so for a mount
      # inside that folder the folders on the way to the mount are matched
      # off its front, and what is left is anchored at the mount's root.
      module Globs
        module_function

        # The glob for +entry+'s store searched at +inner+ (nil: its whole
        # store), or :none when no path of it can match. A glob without a
        # slash matches file names anywhere; with one it matches paths inside
        # the searched folder, so for a mount inside that folder the mount's
        # place is taken off its front.
        def for(glob, folder, entry, inner)
          return glob if glob.nil? || !glob.include?('/') || !inner.nil? || entry.default? ||
                         entry.name == folder

          relative = folder.empty? ? entry.name : entry.name.delete_prefix("#{folder}/")
          strip(glob, relative.split('/'))
        end

        # +glob+ with the folders +parts+ matched off its front.
        def strip(glob, parts)
          segments = glob.split('/')
          parts.each do |part|
            return glob if segments.first == '**' # ** takes any folders, the mount's too

            segment = segments.shift
            return :none if segment.nil? || segments.empty?
            return :none unless File.fnmatch?(segment, part, File::FNM_EXTGLOB | File::FNM_DOTMATCH)
          end
          rest = segments.join('/')
          rest.include?('/') ? rest : "/#{rest}"
        end
      end
    end
  end
end
