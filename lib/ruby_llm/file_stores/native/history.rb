# frozen_string_literal: true

module RubyLLM
  module FileStores
    module Native
      # A store's history: every version of its files, kept by a log
      # (History::MemoryLog in memory, History::DirLog in a folder of its
      # own) that HistoryRecorder writes to and HistoryMethods reads. This
      # module reads the history: option and holds what made a change (by:),
      # which the tools and run_code set for the changes they make.
      module History
        # Versions kept per file unless keep: says otherwise.
        DEFAULT_KEEP = 50

        BY = :ruby_llm_file_store_history_by
        CHANGE = :ruby_llm_file_store_history_change
        UNRECORDED = :ruby_llm_file_store_history_unrecorded
        private_constant :BY, :CHANGE, :UNRECORDED

        # One version as a log keeps it. +baseline+: the bytes a file had
        # before the history first saw it change (they count as older than
        # any checkpoint); +blob_id+: the Active Storage blob holding the
        # bytes (nil in the other logs, which keep bytes by digest).
        # +unkept+: true for a version over max_version_bytes, whose bytes
        # were not kept. +at+: when, in seconds since the epoch (a Float,
        # held in the reference itself: a Time would be one more object
        # for every version kept), or the Time an Active Storage row holds.
        # Made positionally where a change is recorded (a fifth of what
        # keywords cost, on every write), by name (Record.of) where a log
        # reads one back.
        Record = Struct.new(:id, :owner, :path, :change, :digest, :byte_size, :content_type, :at, :by, :baseline,
                            :blob_id, :unkept) do
          # A Record from its fields by name.
          def self.of(id:, owner:, path:, change:, digest:, byte_size:, content_type:, at:, by:, baseline:,
                      blob_id: nil, unkept: nil)
            new(id, owner, path, change, digest, byte_size, content_type, at, by, baseline, blob_id, unkept)
          end

          # [owner, path], made when asked: not kept, since an instance
          # variable on a Struct is held in a table of its own the garbage
          # collector walks, for every version kept.
          def key = [owner, path]

          # Whether its bytes were kept (all but a version over max_version_bytes).
          def bytes_kept? = digest && !unkept

          def to_version
            RubyLLM::FileVersion.new(path:, id:, change:, digest:, byte_size:, content_type:,
                                     created_at: at.is_a?(Float) ? Time.at(at) : at, by:, kept: !unkept)
          end
        end

        module_function

        # Runs the block with +by+ as what makes the changes through any
        # store in this thread or fiber (a tool's name, :code, :attachment);
        # +change+ (:restored) names the change a write makes instead of
        # :created or :changed.
        def acting(by, change: nil)
          outer = [Thread.current[BY], Thread.current[CHANGE]]
          Thread.current[BY] = by
          Thread.current[CHANGE] = change if change
          yield
        ensure
          Thread.current[BY], Thread.current[CHANGE] = outer
        end

        # The key a question's checkpoint is kept under for +message+: a
        # saved record's class and id (the same in every process), else the
        # object itself (a RubyLLM::Message of a chat in memory). Not a
        # valid file path, so it never names a file's versions.
        def message_key(message)
          if defined?(::ActiveRecord::Base) && message.is_a?(::ActiveRecord::Base)
            raise ArgumentError, 'the message is not saved: it has no checkpoint' unless message.persisted?

            "/question/#{message.class.name}##{message.id}"
          else
            "/question/object-#{message.object_id}"
          end
        end

        # Runs the block with no change through any store recorded: what
        # needs no history (a chat's long tool results under results/).
        def unrecorded
          outer = Thread.current[UNRECORDED]
          Thread.current[UNRECORDED] = true
          yield
        ensure
          Thread.current[UNRECORDED] = outer
        end

        # Whether changes go unrecorded now (see unrecorded).
        def unrecorded? = Thread.current[UNRECORDED] == true

        # The time of a change, as Record#at: seconds since the epoch (the
        # clock Time.now reads, without the three objects Time.now makes).
        def now = Process.clock_gettime(Process::CLOCK_REALTIME)

        # What makes the changes now: :app unless acting says otherwise.
        def by = Thread.current[BY] || :app

        # The change a write makes now instead of :created or :changed, or nil.
        def change_override = Thread.current[CHANGE]

        # The keep: and keep_for: of a history: option given as a Hash (or
        # true); raises ArgumentError for anything else.
        def limits(option)
          return { keep: DEFAULT_KEEP, keep_for: nil, max_version_bytes: nil } if option == true

          keep = option.fetch(:keep, DEFAULT_KEEP)
          keep_for = option[:keep_for]
          raise ArgumentError, "history keep: must be a positive Integer, not #{keep.inspect}" unless
            keep.is_a?(Integer) && keep.positive?

          if keep_for && !(keep_for.respond_to?(:to_f) && keep_for.to_f.positive?)
            raise ArgumentError, 'history keep_for: must be a positive number of seconds (or a duration), not ' \
                                 "#{keep_for.inspect}"
          end

          { keep:, keep_for: keep_for&.to_f, max_version_bytes: max_version_bytes(option[:max_version_bytes]) }
        end

        # The size over which a version's bytes are not kept (recorded as not
        # kept, never missing); nil: every version is kept.
        def max_version_bytes(value)
          return nil if value.nil?
          return value if value.is_a?(Integer) && value.positive?

          raise ArgumentError, "history max_version_bytes: must be a positive Integer, not #{value.inspect}"
        end

        # The log of a Memory store made with +option+ (true, or a Hash with
        # keep:, keep_for:), or nil when it is false or nil.
        def memory_log(option)
          return nil if option.nil? || option == false

          check_option(option)
          MemoryLog.new(**limits(option))
        end

        # Refuses a history: option that is neither true nor a Hash of
        # keep: and keep_for: (a store without a folder of its own).
        def check_option(option)
          unless option == true || option.is_a?(Hash)
            raise ArgumentError, 'history: must be true, false or a Hash with keep: and keep_for:, not ' \
                                 "#{option.inspect}"
          end

          check_keys(option)
        end

        # The log of a NativeDir in +root+ made with +option+: a folder path
        # outside +root+, or a Hash with path:, keep:, keep_for:; nil when
        # it is false or nil.
        def dir_log(option, root)
          return nil if option.nil? || option == false

          option = { path: option } if option.is_a?(String) || option.respond_to?(:to_path)
          unless option.is_a?(Hash) && option[:path]
            raise ArgumentError, 'history: for a NativeDir is a folder outside its own (a String), or a Hash with ' \
                                 "path:, keep: and keep_for:, not #{option.inspect}"
          end

          check_keys(option, :path)
          DirLog.new(DirLog::Place.place(option[:path], root), **limits(option.except(:path)))
        end

        def check_keys(option, *more)
          return unless option.is_a?(Hash)

          unknown = option.keys - %i[keep keep_for max_version_bytes] - more
          raise ArgumentError, "history: has no option #{unknown.first.inspect}" if unknown.any?
        end
      end
    end
  end
end
