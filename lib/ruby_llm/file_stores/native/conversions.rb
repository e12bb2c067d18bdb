# frozen_string_literal: true

module RubyLLM
  module FileStores
    module Native
      # Text made from other formats by the registered converters
      # (RubyLLM::FileStore::Converters), kept per version with cache_text;
      # part of StoreMethods.
      module Conversions
        # Runs the local (free) converters for the file at +path+ and keeps
        # the text, so search_files finds it without a read. Returns the text,
        # or nil for a text file, a format no local converter reads, or a file
        # whose first converter is not local.
        def convert_locally(path)
          file = find(path)
          return nil if Native.text_content_type?(file.content_type)

          converted_text(file, local_only: true)
        end

        # The converted text of +file+ (a StoredFile): the kept text when this
        # version was converted before, otherwise the first converter's that
        # reads it, which is then kept. +bytes+ saves a read when the caller
        # has them. Nil when no converter reads the file.
        def converted_text(file, bytes: nil, local_only: false)
          cached = cached_text(file)
          return cached unless cached.nil?
          return nil unless RubyLLM::FileStore::Converters.any_for?(file.content_type)

          text = RubyLLM::FileStore::Converters.convert(file, bytes || read(file.path), local_only:)
          cache_text(file, text) unless text.nil?
          text
        end
      end
    end
  end
end
