# frozen_string_literal: true

module RubyLLM
  class FileStore
    class CodeExecution
      # A folder a run over a tree of stores may change, which the sweep
      # walks after it: +root+ on disk, seen by the code at +prefix+ (''
      # the run's folder), of +part+ (a Layout::Part; nil for the scratch
      # folder of the staged stores, saved back through the tree), with its
      # Snapshot from before the run.
      View = Struct.new(:root, :prefix, :part, :before, keyword_init: true) do
        # Whether the code changed the store's own folder.
        def in_place? = !part.nil? && part.kind == :folder

        # The mount points inside this folder (+active+: the run's, paths
        # in the run's folder), relative to it, for the sweep to skip. The
        # scratch folder's +own+ mounts (bound from it) are no mount points
        # in it.
        def skip(active, own)
          own = [] unless part.nil?
          active.filter_map do |inside|
            next nil if own.include?(inside)
            next inside if prefix.empty?

            inside.delete_prefix("#{prefix}/") if inside.start_with?("#{prefix}/")
          end
        end

        # +path+ (in this folder) as a path of the tree.
        def full(path) = prefix.empty? ? path : "#{prefix}/#{path}"
      end
    end
  end
end
