# frozen_string_literal: true

require 'set'
require 'tempfile'

module RubyLLM
  class FileStore
    # The search engine behind search_files, for any store: grep semantics
    # in Rust (ripgrep's searcher, Rust regex). A NativeDir is searched on
    # disk by the engine itself; other stores hand it their texts. It never
    # runs a converter: files whose format has no text of their own are
    # searched through the text the store already keeps for them, or named
    # as skipped.
    #
    #   RubyLLM::FileStore::Search.run(store, 'terminat(e|ion)', path: 'contracts', context: 1)
    module Search
      # Files read and handed to the engine in the first part. Each later
      # part is twice as large, up to MAX_PART files or PART_BYTES bytes: a
      # capped search stops having read little, and a full scan crosses into
      # the engine a few times only (each crossing ends with a wait for the
      # engine's threads, long on a busy machine).
      PART = 64
      MAX_PART = 1024
      PART_BYTES = 32 << 20

      DEFAULTS = { case_sensitive: false, context: 0, files_only: false, max_matches: 100, max_chars: 20_000,
                   timeout: 10 }.freeze

      class << self
        # The output the model sees. +max_matches+ and +max_chars+ may be nil
        # (no cap); +timeout+ is in seconds. Raises ArgumentError for a
        # pattern or glob the engine cannot use, with a message saying what
        # to write instead, and RubyLLM::FileNotFoundError for a missing folder.
        def run(store, pattern, path: nil, glob: nil, **options)
          store.search(pattern, path:, glob:, **options)
        end

        # The arguments of run checked and made ready for the engine: the
        # request it reads by name, { pattern:, folder:, glob:, glob_lead:,
        # case_sensitive:, context:, files_only:, max_matches:, max_chars:,
        # timeout: } (every key there; it refuses any other). +glob_lead+ is
        # '': a tree of stores sets it for a store mounted inside the folder
        # searched, whose paths the glob matches with the mount's place in
        # front (see Mounts::Merge). Raises ArgumentError as run says.
        def arguments(pattern, path: nil, glob: nil, **options)
          unknown = options.keys - DEFAULTS.keys
          raise ArgumentError, "unknown search options: #{unknown.join(', ')}" if unknown.any?
          raise ArgumentError, 'pattern must be a String' unless pattern.is_a?(String)

          pattern = utf8_text(pattern, 'pattern')
          folder = FileStore.folder(path)
          glob = nil if glob == ''
          raise ArgumentError, 'glob must be a String, like "*.md"' unless glob.nil? || glob.is_a?(String)

          glob &&= utf8_text(glob, 'glob')

          { pattern:, folder:, glob:, glob_lead: '', **engine_settings(DEFAULTS.merge(options)) }
        end

        # +text+ as UTF-8, which the engine needs; ArgumentError when its bytes
        # are not UTF-8 (a model's JSON can carry a lone surrogate, \udc00).
        def utf8_text(text, name)
          utf8 = text.encoding == Encoding::UTF_8 ? text : text.dup.force_encoding(Encoding::UTF_8)
          return utf8 if utf8.valid_encoding?

          raise ArgumentError, "#{name} #{utf8.scrub.inspect} is not valid UTF-8 text; write it in UTF-8"
        end

        # Hands the engine the texts of the files in the request's folder
        # that its glob matches, a part at a time in path order, so that a
        # search that reaches its cap stops before the rest are read, and
        # answers what it found (a Native::SearchReport): what every store
        # does unless it searches by itself, as NativeDir does on disk. A
        # store that can fetch many texts at once (the Active Storage store,
        # in one query) answers texts_for_search(files, stop:) with [path,
        # content] pairs, and may make parts smaller with search_part_bytes
        # (the texts it loads are copies, not borrowed as Memory's are). A
        # content is a text, nil (no text extracted yet), a Tempfile (closed
        # once fed), or a download to search as it arrives: an object whose
        # each_chunk { |bytes| } yields the file's bytes in order while the
        # block returns true (see feed).
        def over_texts(store, request)
          search = FileStores::Native::TextSearch.start(request.except(:folder, :glob, :glob_lead))
          part_bytes = store.respond_to?(:search_part_bytes) ? store.search_part_bytes : PART_BYTES
          each_part(matching_files(store, request), part_bytes) do |files|
            texts = texts_of(store, files, search)
            begin
              break unless feed(search, texts)
            ensure
              texts.each_value { |content| content.close! if content.is_a?(Tempfile) }
            end
          end
          search.finish
        end

        private

        def engine_settings(options)
          { case_sensitive: options[:case_sensitive] == true, context: count(Integer(options[:context]), 'context'),
            files_only: options[:files_only] == true,
            max_matches: options[:max_matches]&.then { |n| count(n, 'max_matches') },
            max_chars: options[:max_chars]&.then { |n| count(n, 'max_chars') }, timeout: options[:timeout]&.to_f }
        end

        # +value+, a whole number the engine holds in a machine word;
        # ArgumentError (not RangeError) for anything else.
        def count(value, name)
          return value if value.is_a?(Integer) && value.between?(0, LineWindow::MAX_LINE_NUMBER)

          raise ArgumentError, "#{name} must be a whole number from 0 to #{LineWindow::MAX_LINE_NUMBER}, " \
                               "not #{value.inspect}"
        end

        # Feeds +texts+ (path => content) in path order, the engine's: the
        # held ones a run at a time, each download streamed into the engine
        # as it arrives, so a file too large to hold is searched at the
        # speed it downloads, and when the deadline comes first the engine
        # reports its lines up to the one it reached. False once the search
        # stopped.
        def feed(search, texts)
          streamed = ->(content) { content.respond_to?(:each_chunk) }
          texts.sort_by(&:first).slice_when { |a, b| streamed[a[1]] || streamed[b[1]] }.all? do |run|
            path, content = run.first
            next search.feed(run.to_h) unless streamed[content]

            search.stream_start(path)
            content.each_chunk { |chunk| search.stream_push(chunk) }
            search.stream_finish
          end
        end

        # Yields +files+ in parts, in order, growing as said at PART, of at
        # most +part_bytes+ bytes (but for a larger file, alone in its part).
        def each_part(files, part_bytes)
          start = 0
          size = PART
          while start < files.size
            stop = start + 1
            bytes = files[start].byte_size
            while stop < files.size && stop - start < size && bytes + files[stop].byte_size <= part_bytes
              bytes += files[stop].byte_size
              stop += 1
            end
            yield files[start...stop]
            start = stop
            size = [size * 2, MAX_PART].min
          end
        end

        # Path => text (nil: none extracted yet; a Tempfile: a download too
        # large to hold, closed once fed) of +files+, for the engine.
        def texts_of(store, files, search)
          stop = -> { search.expired? }
          return store.texts_for_search(files, stop:).to_h if store.respond_to?(:texts_for_search)

          files.filter_map { |file| searchable(store, file) }.to_h
        end

        # The files of the request's folder its glob matches (see
        # arguments for +glob_lead+).
        def matching_files(store, request)
          folder, glob = request.values_at(:folder, :glob)
          files = store.list(folder.empty? ? nil : folder)
          if !folder.empty? && files.empty? && !store.exist?(folder)
            raise RubyLLM::FileNotFoundError, "#{folder} does not exist"
          end
          return files unless glob

          keep = FileStores::Native.glob_filter(glob, folder, request[:glob_lead], files.map(&:path)).to_set
          files.select { |file| keep.include?(file.path) }
        end

        # [path, text] for the engine (text nil: none extracted yet), or nil
        # for a file deleted since the list, which is no longer there to search.
        def searchable(store, file)
          return [file.path, store.read(file.path)] if FileStores::Native.text_content_type?(file.content_type)

          [file.path, store.cached_text(file)&.b]
        rescue RubyLLM::FileNotFoundError
          nil
        end
      end
    end
  end
end
