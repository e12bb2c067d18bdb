# frozen_string_literal: true

module RubyLLM
  class FileStore
    class ActiveStorage < FileStore
      # What the store hands search_files (RubyLLM::FileStore::Search) for a
      # part of the files it searches, without ever holding a large file: a
      # text kept in the row, or a blob with none, downloaded whole when
      # small and else streamed into the search engine as it downloads
      # (Download).
      class SearchTexts # :nodoc:
        # A text file without its text in the row up to this size is
        # downloaded into memory; a larger one is searched as it downloads.
        DOWNLOAD_IN_MEMORY_MAX = 1 << 20
        # Bytes downloaded between two minor garbage collections (see Download).
        GARBAGE_BYTES = 8 << 20
        # Bytes of the files searched per part, PART_BYTES's quarter: the
        # texts a part loads from the rows are held until it is searched.
        SEARCH_PART_BYTES = 8 << 20

        # A blob too large to hold, for search_files to search as it
        # arrives: each_chunk yields its bytes in order, in one streamed
        # download (one GET on S3, not the 5 MB ranged requests of
        # ActiveStorage::Blob#download, each of which the service answers
        # slowly from a large object), and ends the download as soon as the
        # block returns false (the deadline, a cap), closing its connection.
        Download = Struct.new(:blob) do
          # Raised inside the download to end it early, and rescued here.
          stop = Class.new(StandardError)

          define_method(:each_chunk) do |&block|
            since_collected = 0
            each_part do |chunk|
              raise stop unless block.call(chunk)

              # What the download leaves of each part (on S3, its response
              # buffers) grows to hundreds of MB over a large file when
              # Ruby's collector is left to itself.
              since_collected += chunk.bytesize
              next if since_collected < GARBAGE_BYTES

              GC.start(full_mark: false, immediate_sweep: true)
              since_collected = 0
            end
            nil
          rescue StandardError => e
            # The S3 client answers an error raised inside its GET with
            # its own, caused by it (it cannot retry a streamed GET).
            raise unless e.is_a?(stop) || e.cause.is_a?(stop)
          end

          private

          # The blob's bytes as the service streams them: on S3 one GET
          # (Active Storage's own event names it), elsewhere its download
          # with a block (the Disk service reads the file in parts; a
          # mirror, its primary).
          def each_part(&)
            service = blob.service
            service = service.primary while service.respond_to?(:primary)
            return blob.download(&) unless s3?(service)

            ::ActiveSupport::Notifications.instrument('service_streaming_download.active_storage',
                                                      key: blob.key, service: 'S3') do
              service.bucket.object(blob.key).get { |chunk, *| yield chunk }
            end
          end

          def s3?(service)
            defined?(::ActiveStorage::Service::S3Service) && service.is_a?(::ActiveStorage::Service::S3Service)
          end
        end

        def initialize(rows, blobs)
          @rows = rows
          @blobs = blobs
        end

        # [path, content] for the search engine, for many files in one query:
        # a text file's bytes from its row when they are there (frozen, so
        # the engine reads them without a copy), else its blob (a String up
        # to DOWNLOAD_IN_MEMORY_MAX bytes, a Download above, which the
        # search streams); another file's converted text for its version, or
        # nil. Files deleted since they were listed are left out. +stop+ is
        # not needed: a Download is made during the search, which stops it.
        def texts(files)
          collect_garbage if files.sum(&:byte_size) >= DOWNLOAD_IN_MEMORY_MAX
          by_path = rows_for_search(files)
          files.filter_map do |file|
            row = by_path[file.path] or next
            next [file.path, search_content(row)] if FileStores::Native.text_content_type?(row.content_type)

            [file.path, (row.text.b.freeze if row.text && row.digest == file.digest)]
          end
        end

        private

        # A minor collection before a part of 1 MB or more is loaded, so the
        # texts of the part searched before (garbage now) are freed first:
        # left to itself, Ruby's collector let 70 MB of them pile up.
        def collect_garbage = GC.start(full_mark: false, immediate_sweep: true)

        def rows_for_search(files)
          rows = @rows.at_paths(@rows.visible, files.map(&:path)).select(*Rows::LIST_COLUMNS, :text).to_a
          @rows.preferred(rows).to_h { |row| [row.path, row] }
        end

        def search_content(row)
          text = Blobs.exact_text(row)
          return text.freeze if text

          blob = @blobs.of(row)
          return blob.download.b.freeze if row.byte_size <= DOWNLOAD_IN_MEMORY_MAX

          Download.new(blob)
        end
      end
    end
  end
end
