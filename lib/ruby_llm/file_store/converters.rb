# frozen_string_literal: true

require 'stringio'

module RubyLLM
  class FileStore
    # Converters turn a file into text for read_file, FileStore#text and
    # search_files. A converter answers +call(file)+, where +file+ has
    # +content+, +filename+ and +mime_type+ (a RubyLLM::Attachment when
    # ruby_llm is loaded), and returns the text or nil to pass the file on.
    # A converter that answers +local?+ with true reads files on this machine
    # for free, and runs as soon as a chat keeps a file. The built-in ones
    # (Office, PdfText, Text, OCR) are classes whose instances convert, and
    # each class converts as a new instance would, so either may be
    # registered (see Callable).
    #
    # Register converters by content type:
    #
    #   RubyLLM.configure do |config|
    #     config.file_converters['application/pdf'] = [RubyLLM::FileStore::Converters::PdfText.new,
    #                                                  RubyLLM::FileStore::Converters::OCR.new]
    #   end
    #
    # For a file, converters registered for its exact type run first, then
    # those for its family ('image/*'), then those for '*/*', then the ones
    # this gem ships (Office). An Array is tried in order.
    module Converters
      # What a converter is given when ruby_llm is not loaded.
      Input = Struct.new(:content, :filename, :mime_type, :path, keyword_init: true)

      class << self
        # The converters for +content_type+, in the order they are tried.
        def chain(content_type)
          type = content_type.to_s.downcase
          registered = FileStores::Native.registered_converters
          family = "#{type.split('/').first}/*"
          [type, family, '*/*'].uniq.flat_map { |key| Array(lookup(registered, key)) } + builtins(type)
        end

        # What a converter may raise that is logged and told to the model as
        # a ConversionError: errors (a provider's RubyLLM::ServerError, a
        # bug), NotImplementedError (a ScriptError), a stack overflow and
        # NoMemoryError (an allocation refused by a cap; the process lives
        # on). Interrupt, SignalException, SystemExit and Timeout's own
        # exception class are not rescued: they must stop the caller.
        FAILURES = [StandardError, ScriptError, SystemStackError, NoMemoryError].freeze

        # C0 controls but tab, line feed and carriage return: a NUL makes a
        # converted text look binary to search_files, and none means anything
        # to a model.
        CONTROLS = "\x00-\x08\x0B\x0C\x0E-\x1F"

        # The text of +file+ (a StoredFile) whose bytes are +bytes+, from the
        # first converter that reads it; nil when none does. With
        # +local_only+, stops at the first converter that is not local.
        # A converter that raises one of FAILURES but ConversionError, or
        # returns something whose +to_s+ is not a String, is logged and
        # raises ConversionError "<path> could not be converted: ...", which
        # tools tell the model. The text is UTF-8 with invalid bytes
        # replaced, C0 controls but tab and line feed dropped, and CR LF or a
        # lone CR read as a line feed.
        def convert(file, bytes, local_only: false)
          input = nil
          chain(file.content_type).each do |converter|
            return nil if local_only && !local?(converter)

            input ||= input_for(file, bytes)
            text = call(converter, input, file)
            return clean(text) unless text.nil?
          end
          nil
        end

        # +text+ (a String) as converted text: see convert.
        def clean(text)
          text = text.dup.force_encoding(Encoding::UTF_8)
          text = text.scrub unless text.valid_encoding?
          text = text.gsub(/\r\n?/, "\n") if text.include?("\r")
          text.count(CONTROLS).zero? ? text : text.delete(CONTROLS)
        end

        # Whether a converter runs for +content_type+ as soon as a chat keeps
        # a file: its first converter is local.
        def local_for?(content_type)
          first = chain(content_type).first
          !first.nil? && local?(first)
        end

        # Whether any converter may read +content_type+.
        def any_for?(content_type)
          chain(content_type).any?
        end

        # Whether +converter+ is free and runs on this machine (answers local? true), so a chat may run it as
        # soon as it keeps a file.
        def local?(converter)
          converter.respond_to?(:local?) && converter.local? == true
        end

        private

        # The converter's text as a String, or nil when it passes the file on.
        def call(converter, input, file)
          text = converter.call(input)
          return nil if text.nil?

          string = text.to_s
          return string if string.is_a?(String)

          raise TypeError, "the converter returned a #{text.class} whose to_s is a #{string.class}, not a String"
        rescue ConversionError
          raise
        rescue *FAILURES => e
          message = "#{file.path} could not be converted: #{e.class}: #{e.message}"
          FileStores::Native.logger.error("RubyLLM::FileStore::Converters: #{message} (by #{converter.inspect}, at " \
                                          "#{Array(e.backtrace).first})")
          raise ConversionError, message
        end

        def lookup(registered, key)
          registered.each { |type, converters| return converters if type.to_s.downcase == key }
          nil
        end

        def builtins(type)
          FileStores::Native.office_format('', type) ? [Office] : []
        end

        def input_for(file, bytes)
          if defined?(RubyLLM::Attachment)
            RubyLLM::Attachment.new(StringIO.new(bytes), filename: file.filename)
          else
            Input.new(content: bytes, filename: file.filename, mime_type: file.content_type, path: file.path)
          end
        end
      end
    end
  end
end

require_relative 'converters/callable'
require_relative 'converters/local'
require_relative 'converters/office'
require_relative 'converters/pdf_text'
require_relative 'converters/text'
require_relative 'converters/ocr'
