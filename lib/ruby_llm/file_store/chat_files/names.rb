# frozen_string_literal: true

require 'cgi'

module RubyLLM
  class FileStore
    class ChatFiles
      # The names the chat integration gives files, and how it shows them.
      #
      #   Names.kept("../Q3 report\u202Efdp.exe")  # => "Q3 report_fdp.exe"
      #   Names.fit("#{'議' * 100}.md", 249)          # => 82 characters, then ".md"
      #   Names.attribute("a'>b")                    # => "a&#39;&gt;b"
      #
      # A kept name reaches the model in one-line notes and wrappers, so
      # nothing in it may break a line, reorder what is shown (bidi
      # controls) or hide characters (format characters). A store takes
      # names of up to 255 bytes, so names are cut by bytes.
      module Names # :nodoc:
        # The longest name of one path component a store takes, in bytes.
        MAX_BYTES = 255
        # An extension longer than this is cut with the rest of the name.
        MAX_EXTENSION_BYTES = 32
        # Line and paragraph separators, and format characters (Cf: bidi
        # controls, zero-width characters, soft hyphens, BOMs...).
        UNSEEN = /[\p{Zl}\p{Zp}\p{Cf}]/

        # A media type as RFC 6838 names them: type/subtype, no parameters.
        MEDIA_TYPE = %r{\A[a-z0-9][a-z0-9!$&^_.+#-]{0,126}/[a-z0-9][a-z0-9!$&^_.+#-]{0,126}\z}i

        module_function

        # +type+ when it is a plain media type ("text/markdown"), else nil.
        def media_type(type)
          type.is_a?(String) && MEDIA_TYPE.match?(type) ? type : nil
        end

        # A file name a store accepts, from an attachment's name: the last
        # part of it, without control characters or leading dots (which
        # would hide it), unseen characters as "_", at most +max_bytes+
        # bytes; "attachment" when nothing is left.
        def kept(filename, max_bytes: MAX_BYTES)
          name = filename.to_s.dup.force_encoding(Encoding::UTF_8).scrub('_')
          name = name.tr('\\', '/').split('/').last.to_s.gsub(/[[:cntrl:]]/, '').gsub(UNSEEN, '_')
          name = name.strip.sub(/\A[.\s]+/, '')
          name.empty? ? 'attachment' : fit(name, max_bytes)
        end

        # +name+ cut to at most +max_bytes+ bytes on a character boundary,
        # keeping its extension (when that is short).
        def fit(name, max_bytes)
          return name if name.bytesize <= max_bytes

          extension = extension(name)
          cut(name.delete_suffix(extension), max_bytes - extension.bytesize) + extension
        end

        # The +number+th name for a file called +name+: "report-2.pdf",
        # its stem cut so that it fits a store.
        def numbered(name, number)
          extension = extension(name)
          suffix = "-#{number}#{extension}"
          "#{cut(name.delete_suffix(extension), MAX_BYTES - suffix.bytesize)}#{suffix}"
        end

        # The extension of +name+ kept when it is cut or numbered: "" for
        # one longer than MAX_EXTENSION_BYTES, or for ".gitignore"-like names.
        def extension(name)
          extension = File.extname(name)
          extension.bytesize > MAX_EXTENSION_BYTES || extension == name ? '' : extension
        end

        # The start of +text+ that fits +bytes+, ending on a whole character.
        def cut(text, bytes)
          return text if text.bytesize <= bytes

          text.byteslice(0, [bytes, 0].max).scrub('')
        end

        # +value+ as an XML attribute value: &, <, >, ' and " escaped.
        def attribute(value)
          CGI.escapeHTML(value.to_s)
        end
      end
    end
  end
end
