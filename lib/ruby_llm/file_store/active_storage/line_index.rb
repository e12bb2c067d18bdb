# frozen_string_literal: true

require 'digest'

module RubyLLM
  class FileStore
    class ActiveStorage < FileStore
      # The line index a blob's metadata keeps (see Streams), believed only
      # when this store wrote it: a blob's metadata is not the store's alone
      # (Rails' direct uploads take +metadata+ from the browser, the store's
      # mark included, and a message's attachment is kept as it is), and a
      # wrong index shows lines under the wrong numbers, hides lines, or
      # makes the download fail. So the store signs what it writes, for the
      # blob's key, with Active Storage's verifier (the application's
      # secret_key_base), and a read uses an index only when its signature
      # holds and its entries are whole numbers, in order, inside the blob;
      # any other is read past, as a blob without one. Without a verifier
      # (Active Storage not booted by Rails) no index is written or believed.
      module LineIndex # :nodoc:
        # The purpose the signature is made for, so no other signed message
        # of the application passes for one.
        PURPOSE = 'ruby_llm_line_index'

        module_function

        # +index+ ({ "lines" => [...], "offsets" => [...], "total" => n },
        # from the native text stream) signed for the blob whose key is
        # +key+: what the metadata keeps. nil without a verifier.
        def signed(key, index)
          verifier = self.verifier
          return nil unless verifier && index

          index.merge('signature' => verifier.generate(fingerprint(key, index), purpose: PURPOSE))
        end

        # The index kept in +blob+'s metadata when the store wrote it for
        # this blob and it fits the blob; else nil.
        def trusted(blob)
          index = blob.metadata[Streams::LINE_INDEX]
          return nil unless well_formed?(index, blob.byte_size)

          signature = index['signature']
          verifier = self.verifier
          return nil unless verifier && signature.is_a?(String)

          verifier.verified(signature, purpose: PURPOSE) == fingerprint(blob.key, index) ? index : nil
        rescue StandardError # a signature that does not even decode is one the store did not write
          nil
        end

        # Whether +index+ has whole numbers where they belong: lines from 1
        # and offsets from 0, each increasing, the offsets inside a blob of
        # +byte_size+ bytes, and a total no smaller than the last line.
        def well_formed?(index, byte_size)
          return false unless index.is_a?(Hash)

          lines, offsets, total = index.values_at('lines', 'offsets', 'total')
          return false unless whole_numbers?(lines, offsets, total)

          increasing?(lines, 1) && increasing?(offsets, 0) && (offsets.empty? || offsets.last < byte_size) &&
            total >= (lines.last || 0)
        end

        def whole_numbers?(lines, offsets, total)
          lines.is_a?(Array) && offsets.is_a?(Array) && lines.size == offsets.size && total.is_a?(Integer) &&
            (lines + offsets).all?(Integer)
        end

        def increasing?(values, least)
          values.each_cons(2).all? { |a, b| a < b } && (values.empty? || values.first >= least)
        end

        # What the signature covers: the blob's key and every entry.
        def fingerprint(key, index)
          Digest::SHA256.hexdigest("#{key}:#{index['total']}:#{index['lines'].join(',')}:#{index['offsets'].join(',')}")
        end

        def verifier
          ::ActiveStorage.verifier if ::ActiveStorage.respond_to?(:verifier)
        end
      end
    end
  end
end
