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
        # one, in braces, where none has braces of its own and the union is
        # no longer than a glob may be. Else "**/" and the shortest (every
        # other ends with it), which matches every path they match, and
        # more: Merge holds the files found to the whole glob.
        def strip(glob, parts)
          # A run of "**" matches what one does; kept apart, each would be
          # one more way to match the same folders.
          segments = glob.split('/').chunk_while { |a, b| a == '**' && b == '**' }.map(&:first)
          rests = remainders(segments, parts, 0, 0, {}).sort.map { |at| segments.drop(at).join('/') }
          return :none if rests.empty?

          "/#{rests.size == 1 ? rests.first : union(rests)}"
        end

        def union(rests)
          union = "{#{rests.join(',')}}"
          return union unless rests.any? { |rest| rest.match?(/[{}]/) } || union.bytesize >= MAX_UNION_BYTES

          shortest = rests.last
          shortest.start_with?('**') ? shortest : "**/#{shortest}"
        end

        # Room for the union under the engine's limit, with its leading "/".
        MAX_UNION_BYTES = FileStores::Native::MAX_GLOB_BYTES

        # The segments left (as the index of the first) once +segments+ from
        # +at+ have matched +parts+ from +part+; none when they cannot, or
        # when nothing is left to match a file with. Each state once (+seen+),
        # so a glob of many "**" takes segments times parts steps.
        def remainders(segments, parts, at, part, seen)
          seen[[at, part]] ||= begin
            first = segments[at]
            if part == parts.size
              at == segments.size ? [] : [at]
            elsif first == '**'
              remainders(segments, parts, at + 1, part, seen) | remainders(segments, parts, at, part + 1, seen)
            elsif first && File.fnmatch?(first, parts[part], File::FNM_EXTGLOB | File::FNM_DOTMATCH)
              remainders(segments, parts, at + 1, part + 1, seen)
            else
              []
            end
          end
        end
      end
    end
  end
end
