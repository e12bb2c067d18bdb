# frozen_string_literal: true

module RubyLLM
  module FileStores
    module Native
      module Glue
        # Keeps files in a store without writing over a different one: a
        # second "report.pdf" with other bytes becomes "report-2.pdf", and
        # the same bytes kept twice are kept once.
        #
        #   keeper = Keeper.new(store)
        #   file, written = keeper.keep('report.pdf', bytes, content_type: 'application/pdf')
        class Keeper
          MAX_TRIES = 10_000

          attr_reader :store

          def initialize(store)
            @store = store
          end

          # Keeps +bytes+ at +path+, or at the first numbered path free of a
          # different file. Returns the StoredFile and whether it was
          # written (false when the same bytes were there already). Raises
          # RubyLLM::FileStoreFullError when the store is full.
          def keep(path, bytes, content_type: nil)
            path = RubyLLM::FileStore.path(path)
            digest = Native.sha256_hex(bytes)
            store.with_lock do
              candidates(path).each do |candidate|
                existing = store[candidate]
                next if existing && digest_of(existing) != digest
                return [existing, false] if existing

                written = write(candidate, bytes, content_type)
                return [written, true] if written
              end
            end
            raise ArgumentError, "no free name for #{path} in #{MAX_TRIES} tries"
          end

          # A file name that a store accepts, from an attachment's name: the
          # last part of it, without control characters or leading dots
          # (which would hide it), "attachment" when nothing is left.
          def self.safe_name(filename)
            name = filename.to_s.dup.force_encoding(Encoding::UTF_8).scrub('_')
            name = name.tr('\\', '/').split('/').last.to_s.gsub(/[[:cntrl:]]/, '').strip.sub(/\A[.\s]+/, '')
            name = name[0, 200] if name.size > 200
            name.empty? ? 'attachment' : name
          end

          private

          # "report.pdf", then "report-2.pdf", "report-3.pdf", ...
          def candidates(path)
            folder, name = File.split(path)
            ext = File.extname(name)
            stem = name.delete_suffix(ext)
            if stem.empty? # ".gitignore"-like names have no extension
              stem = name
              ext = ''
            end
            Enumerator.new do |out|
              out << path
              (2..MAX_TRIES).each do |n|
                numbered = "#{stem}-#{n}#{ext}"
                out << (folder == '.' ? numbered : "#{folder}/#{numbered}")
              end
            end
          end

          def digest_of(file)
            file.digest || Native.sha256_hex(store.read(file.path))
          end

          # Writes, or nil when a folder has the name (try the next one).
          def write(path, bytes, content_type)
            store.write(path, bytes, content_type:)
          rescue ArgumentError
            nil
          end
        end
      end
    end
  end
end
