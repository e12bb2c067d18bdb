# frozen_string_literal: true

require 'set'

module RubyLLM
  class FileStore
    class ActiveStorage < FileStore
      # The checks of write_many's batches, as check_place and check_room
      # make them for one write, on the chat's paths and total read once
      # per batch, each file accepted counted for the next. Included by the
      # store; private.
      module BatchChecks
        # What the chat holds as the batch is checked: its paths, the
        # folders they make, its total size (nil without max_bytes) and the
        # sizes of this store's files at the batch's paths.
        Seen = Struct.new(:paths, :folders, :total, :sizes)
        private_constant :Seen

        private

        # The files the store accepts, in order, and {path => why} for the
        # others.
        def checked(files)
          seen = seen_for(files.map { |file| file[:path] })
          refused = {}
          accepted = files.select do |file|
            why = place_refusal(file[:path], seen) || room_refusal(file, seen)
            refused[file[:path]] = why if why
            why ? false : count_in(file, seen)
          end
          [accepted, refused]
        end

        def seen_for(paths)
          known = visible_rows.pluck(:path).to_set
          folders = known.flat_map { |path| parents_of(path) }.to_set
          return Seen.new(known, folders, nil, {}) unless @max_bytes

          Seen.new(known, folders, chat_rows.sum(:byte_size), at_paths(own_rows, paths).pluck(:path, :byte_size).to_h)
        end

        def count_in(file, seen)
          seen.total = needed(file, seen) if seen.total
          seen.sizes[file[:path]] = file[:byte_size]
          seen.paths << file[:path]
          seen.folders.merge(parents_of(file[:path]))
          true
        end

        def needed(file, seen) = seen.total - seen.sizes.fetch(file[:path], 0) + file[:byte_size]

        def parents_of(path)
          parts = path.split('/')
          (1...parts.size).map { |n| parts.first(n).join('/') }
        end

        def place_refusal(path, seen)
          return "#{path} is a folder, not a file" if seen.folders.include?(path)
          return nil unless parents_of(path).any? { |parent| seen.paths.include?(parent) }

          "#{path} goes through a file as if it were a folder"
        end

        def room_refusal(file, seen)
          return nil unless seen.total

          needed = needed(file, seen)
          return nil if needed <= @max_bytes

          "#{FULL} Writing #{file[:path]} needs #{needed} bytes in all, and the limit is #{@max_bytes}."
        end
      end
    end
  end
end
