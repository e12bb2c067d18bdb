# frozen_string_literal: true

module RubyLLM
  class FileStore
    class ChatFiles
      # What the model sees instead of a file: the texts of the notes.
      module Lines # :nodoc:
        module_function

        # The line an earlier attachment, or a file a tool returned, becomes:
        # "contract-v2.pdf (application/pdf, 2.1 MB) is in this chat's files."
        def kept(file)
          "#{file.path} (#{file.content_type}, #{file.human_size}) is in this chat's files."
        end

        # The most characters of a URL a line shows.
        MAX_URL = 300

        # The line a URL attachment that could not be kept becomes, beside
        # the URL itself: "https://example.com/clip.mp4 could not be kept
        # in this chat's files: the server answered 404 Not Found.
        # read_file cannot open it." The URL is shown on one line, cut to
        # MAX_URL characters.
        def url_not_kept(url, reason)
          shown = url.to_s.dup.force_encoding(Encoding::UTF_8).scrub('_').gsub(/[[:cntrl:]]/, '_')
                     .gsub(Names::UNSEEN, '_')
          shown = "#{shown[0, MAX_URL]}..." if shown.size > MAX_URL
          "#{shown} could not be kept in this chat's files: #{reason}. read_file cannot open it."
        end

        # An attachment the provider cannot take, as its converted text: up
        # to +limit+ characters (nil: all), with a note when there is more.
        # Its name and type are escaped: a quote or > in them ends nothing.
        def converted(file, text, limit)
          shown = limit && text.size > limit ? text[0, limit] : text
          body = "<file name='#{Names.attribute(file.path)}' mime_type='#{Names.attribute(file.content_type)}' " \
                 "sent_as='text'>\n#{shown}" \
                 "#{"\n" unless shown.end_with?("\n")}</file>"
          return body if shown.equal?(text)

          "#{body}\n[#{file.path} has #{text.size} characters as text, so only the start is shown. The rest is " \
            "in this chat's files: read more with read_file, or search it with search_files.]"
        end

        # A long tool result: its start and where the rest is.
        def long_result(start, size, file)
          "#{start}\n\n[This result has #{size} characters, so only the start is shown. All of it is in " \
            "#{file.path}: read more with read_file, or search it with search_files.]"
        end

        # +content+ (nil or a String) followed by +lines+.
        def append(content, lines)
          return content if lines.empty?
          return lines.join("\n") if content.nil? || content.empty?

          "#{content}\n\n#{lines.join("\n")}"
        end
      end
    end
  end
end
