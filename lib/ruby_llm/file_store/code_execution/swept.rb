# frozen_string_literal: true

module RubyLLM
  class FileStore
    class CodeExecution
      # One View after the run: its +sweep+, what was removed +over+ its
      # store's cap (paths in the folder) with the +cap_note+, and the
      # +trouble+ met sweeping it.
      Swept = Struct.new(:view, :sweep, :over, :cap_note, :trouble, keyword_init: true) do
        def in_place? = view.in_place?
        def full_sweep = sweep.within(view.prefix)
        def full_over = over.map { |path| view.full(path) }
      end
    end
  end
end
