# frozen_string_literal: true

require 'fileutils'
require 'securerandom'

module RubyLLM
  module FileStores
    module Native
      module History
        class DirLog < Log
          # The bytes of the versions of a NativeDir's history: one file per
          # digest under blobs/, written beside its place then renamed there,
          # so a killed process leaves no torn blob. Included by DirLog.
          module Blobs
            def bytes(record)
              File.binread(blob(record.digest))
            rescue Errno::ENOENT
              raise RubyLLM::FileNotFoundError, "version #{record.id} of #{record.path} is no longer kept"
            end

            def bytes?(digest) = File.exist?(blob(digest))

            private

            def blob(digest)
              raise ArgumentError, 'not a digest' unless digest.match?(/\A[0-9a-f]{64}\z/)

              File.join(@folder, 'blobs', digest[0, 2], digest)
            end

            # Writes the bytes of +digest+ to a temporary file beside its place,
            # then renames it there: a killed process leaves no torn blob.
            def keep_bytes(digest, &)
              path = blob(digest)
              folder = File.dirname(path)
              FileUtils.mkdir_p(folder) unless (@blob_folders ||= {}).key?(folder)
              @blob_folders[folder] = true
              temporary = "#{path}.#{SecureRandom.hex(6)}.tmp"
              File.open(temporary, File::WRONLY | File::CREAT | File::EXCL | File::BINARY, 0o600, &)
              File.rename(temporary, path)
            rescue StandardError
              FileUtils.rm_f(temporary) if temporary
              raise
            end

            def drop_bytes(digest)
              FileUtils.rm_f(blob(digest))
            end
          end
        end
      end
    end
  end
end
