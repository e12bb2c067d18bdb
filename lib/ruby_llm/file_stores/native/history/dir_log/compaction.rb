# frozen_string_literal: true

require 'json'
require 'securerandom'

module RubyLLM
  module FileStores
    module Native
      module History
        class DirLog < Log
          # How a DirLog's journal and pack shrink: the journal written again
          # with only what is kept once it holds many forgotten lines, and
          # the pack copied with only the bytes versions hold once it holds
          # more bytes no version holds than bytes one does (see Pack).
          # Included by DirLog.
          module Compaction
            private

            # Forgets as Log does, then compacts the pack (and so the journal)
            # when it holds more bytes no version holds than bytes one does.
            def forget(records)
              super
              return if records.empty? || !pack_due?

              write_new_pack
              compact
            end

            # Writes the journal again with only the versions kept (and the
            # questions of saved chats), naming the pack, replacing it at once
            # (another process sees a new file and reads it whole); then the
            # packs it does not name go.
            def compact
              kept = @records.values.flatten.sort_by(&:id)
              temporary = "#{@journal}.#{SecureRandom.hex(6)}"
              File.binwrite(temporary, compacted_lines(kept).map { |line| "#{JSON.generate(line)}\n" }.join)
              File.rename(temporary, @journal)
              remove_other_packs
              close_journal
              stat = File.stat(@journal)
              @identity = [stat.dev, stat.ino]
              @offset = stat.size
              @forgotten_lines = 0
            end

            # The pack's name, the versions kept and the questions of saved chats.
            def compacted_lines(kept)
              pack_line + kept.map { |record| Lines.encode(record, place_of(record)) } +
                @questions.filter_map { |key, id| { 'q' => key, 'cp' => id } unless object_question?(key) }
            end
          end
        end
      end
    end
  end
end
