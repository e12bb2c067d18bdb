# frozen_string_literal: true

require 'set'

module RubyLLM
  class FileStore
    class ActiveStorage < FileStore
      # The checks of one of write_many's batches, as Rows#check_place and
      # #check_room make them for one write, on what the chat holds read
      # once for the batch (its paths, the folders they make, its total size
      # and the sizes of the store's files at the batch's paths), each file
      # accepted counted for the next.
      class BatchChecks # :nodoc:
        # The checks of +files+ (each { path:, byte_size:, ... }).
        def initialize(rows, files)
          @rows = rows
          @files = files
          @paths = rows.visible.pluck(:path).to_set
          @folders = @paths.flat_map { |path| Rows.parents_of(path) }.to_set
          @sizes = {}
          return unless rows.max_bytes

          @total = rows.chat_rows.sum(:byte_size)
          @sizes = rows.at_paths(rows.own, files.map { |file| file[:path] }).pluck(:path, :byte_size).to_h
        end

        # The files the store accepts, in order, and {path => why} for the
        # others.
        def check
          refused = {}
          accepted = @files.select do |file|
            why = place_refusal(file[:path]) || room_refusal(file)
            refused[file[:path]] = why if why
            why ? false : count_in(file)
          end
          [accepted, refused]
        end

        private

        def count_in(file)
          @total = needed(file) if @total
          @sizes[file[:path]] = file[:byte_size]
          @paths << file[:path]
          @folders.merge(Rows.parents_of(file[:path]))
          true
        end

        def needed(file) = @total - @sizes.fetch(file[:path], 0) + file[:byte_size]

        def place_refusal(path)
          return "#{path} is a folder, not a file" if @folders.include?(path)
          return nil unless Rows.parents_of(path).any? { |parent| @paths.include?(parent) }

          "#{path} goes through a file as if it were a folder"
        end

        def room_refusal(file)
          return nil unless @total

          needed = needed(file)
          @rows.full_message(file[:path], needed) if needed > @rows.max_bytes
        end
      end
    end
  end
end
