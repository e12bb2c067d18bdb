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

        # +glob+ with the folders +parts+ matched off its front: the glob
        # for the mount's own paths, anchored at its root, or :none. A "**"
        # may take none, some or all of +parts+ (and more folders inside the
        # mount), so a glob can leave several globs behind: they are given as
        # one, in braces, where none has braces of its own; else the one
        # where "**" takes every part, which keeps going inside the mount.
        def strip(glob, parts)
          rests = remainders(glob.split('/'), parts, {}).uniq
          return :none if rests.empty?
          return "/#{rests.first}" if rests.size == 1
          return "/{#{rests.join(',')}}" if rests.none? { |rest| rest.match?(/[{}]/) }

          "/#{rests.find { |rest| rest.start_with?('**') } || rests.first}"
        end

        # The globs (as Strings) the +segments+ of a glob leave once they
        # have matched the folders +parts+; none when they cannot, or when
        # nothing is left to match a file with.
        def remainders(segments, parts, seen)
          seen[[segments.size, parts.size]] ||= begin
            first = segments.first
            if parts.empty?
              segments.empty? ? [] : [segments.join('/')]
            elsif first == '**'
              remainders(segments.drop(1), parts, seen) + remainders(segments, parts.drop(1), seen)
            elsif first && File.fnmatch?(first, parts.first, File::FNM_EXTGLOB | File::FNM_DOTMATCH)
              remainders(segments.drop(1), parts.drop(1), seen)
            else
              []
            end
          end
        end
      end
    end
  end
end
