# frozen_string_literal: true

module RubyLLM
  module FileStores
    module Native
      module History
        # What every log of versions knows, wherever it keeps them: each
        # file's versions (by owner and path, oldest first), the ids, which
        # bytes which versions hold, and keep:/keep_for:. Its methods run
        # under the store's lock (HistoryRecorder and HistoryMethods take
        # it), so two writers give two versions in their order. MemoryLog
        # keeps the bytes in memory, DirLog in a folder; both keep here only
        # the versions' records, never their bytes.
        class Log
          attr_reader :keep, :keep_for, :max_version_bytes, :last_id

          def initialize(keep:, keep_for:, max_version_bytes: nil)
            @keep = keep
            @keep_for = keep_for
            @max_version_bytes = max_version_bytes
            reset
          end

          # The versions of +key+ ([owner, path]), oldest first.
          def records(key) = @records.fetch(key, EMPTY)

          # The newest version of +key+, or nil.
          def newest(key) = @records[key]&.last

          # The newest version of each of +keys+, key => Record (none: absent).
          def newest_of(keys) = keys.to_h { |key| [key, newest(key)] }

          # The record of version +id+ of +key+, or nil when it is not kept.
          def record(key, id) = records(key).find { |record| record.id == id }

          # The keys of +owner+ with a version newer than +id+.
          def keys_since(id, owner)
            @records.filter_map { |key, list| key if key.first == owner && list.last.id > id }
          end

          # Whether a version of +key+ as old as +id+ or older was forgotten
          # (by keep: or keep_for:): what the file was then is not known.
          def forgotten_by?(key, id)
            first = @forgotten_first[key]
            !first.nil? && first <= id
          end

          # Adds versions, each a Record without its id (given here), in
          # order; returns them. The bytes of those with a digest must be
          # kept first (#hold). Older versions past keep: and keep_for: are
          # forgotten, never a file's newest.
          def add(records)
            records.each { |record| record.id = @last_id += 1 }
            persist(records)
            lists = records.map { |record| apply(record) }
            past = if lists.size == 1
                     past_limits(lists.first)
                   else
                     lists.uniq(&:object_id).flat_map { |list| past_limits(list) }
                   end
            forget(past) unless past.empty? # once for them all: one line in a DirLog's journal
            records
          end

          # Keeps the bytes of +digest+ unless they are kept already: the
          # block writes them to the sink it is given (with <<).
          def hold(digest, &)
            keep_bytes(digest, &) unless bytes?(digest)
          end

          # Whether the bytes of +record+ are kept.
          def kept?(record) = !record.unkept && bytes?(record.digest)

          # Whether a version of +byte_size+ bytes is over max_version_bytes.
          def too_big?(byte_size) = !max_version_bytes.nil? && byte_size > max_version_bytes

          # What a store's write takes to make +record+ the file again: its
          # bytes here (the Active Storage log gives its blob, kept as it is).
          def content(record) = bytes(record)

          # Remembers that the question keyed +key+ (History.message_key) was
          # asked at the checkpoint +id+.
          def remember_question(key, id)
            persist_question(key, id)
            @questions[key] = id
          end

          # The checkpoint id of the question keyed +key+, or nil.
          def question(key) = @questions[key]

          # Brings the log up to date with what other processes wrote, and
          # returns the keys of a change that was under way when its process
          # stopped (nil when none): the store records what they hold now.
          def sync = nil

          # Marks a change of +owner+'s +paths+ as under way, for #sync after
          # a crash: nothing to mark in a log that lives and dies with its
          # process (it has no crash to recover from).
          def begin_change(_owner, _paths); end

          # Marks the change under way as done, when it recorded no version.
          def end_change; end

          private

          EMPTY = [].freeze
          private_constant :EMPTY

          def reset
            @records = {}
            @forgotten_first = {}
            @refs = Hash.new(0)
            @questions = {}
            @last_id = 0
          end

          # Adds +record+ to its file's versions, and returns them.
          def apply(record)
            @refs[record.digest] += 1 if record.bytes_kept?
            @last_id = record.id if record.id > @last_id
            (@records[record.key] ||= []) << record
          end

          # The versions of a file's +list+ past keep: and keep_for:, oldest
          # first (never the newest).
          def past_limits(list)
            past = list.size - keep
            return EMPTY if past <= 0 && (!keep_for || list.size == 1) # most adds: nothing to look at

            past = 0 if past.negative?
            return list.first(past) unless keep_for

            horizon = Time.now.to_f - keep_for
            past += 1 while past < list.size - 1 && list[past].at < horizon
            list.first(past)
          end

          def forget(records)
            return if records.empty?

            persist_forget(records)
            records.each { |record| drop(record) }
          end

          def drop(record)
            key = record.key
            list = @records[key]
            # Forgotten oldest first, so most often the first (shift: no copy).
            list.first.equal?(record) ? list.shift : list.delete_at(list.index { |each| each.equal?(record) })
            @records.delete(key) if list.empty?
            first = @forgotten_first[key]
            @forgotten_first[key] = record.id if first.nil? || record.id < first
            release(record.digest) if record.bytes_kept?
          end

          # One version fewer holds the bytes of +digest+: they go with the last.
          def release(digest)
            left = @refs[digest] - 1
            return @refs[digest] = left if left.positive?

            @refs.delete(digest)
            drop_bytes(digest)
          end

          def persist(_records); end
          def persist_forget(_records); end
          def persist_question(_key, _id); end
        end
      end
    end
  end
end
