# frozen_string_literal: true

module RubyLLM
  class FileStore
    module Tools
      # The words apply_patch answers with when a file's hunks do not apply
      # (a Native::PatchOutcome that failed): which hunk of which file, why,
      # and what to send instead. Nothing was changed when it is said.
      module PatchRefusal # :nodoc:
        module_function

        # The message for +path+, whose +hunks+ hunks gave +outcome+;
        # +room+ is the bytes the call had left of MAX_EDIT_CALL_RESULT.
        def message(outcome, path, hunks, room)
          hunk = "Hunk #{outcome.hunk.to_i + 1} of #{path}"
          text = case outcome.failure
                 when :header_missing then header_missing(hunk, outcome)
                 when :lines_missing then lines_missing(hunk, outcome, hunks)
                 when :ambiguous then ambiguous(hunk, outcome)
                 when :out_of_time then out_of_time(hunk)
                 else too_large(path, outcome.size, room)
                 end
          "#{text} Nothing was changed."
        end

        # The message for +path+, whose text could not be written back in
        # its encoding as it was (+error+, a ConversionError, says why).
        def unwritable(path, error)
          "#{path} cannot be patched: #{error.message}. Nothing was changed."
        end

        # The message for a Delete or an Update (+what+) of a +path+ that is not there.
        def missing(path, what)
          how = what == 'Update' ? ' To create it, use *** Add File.' : ''
          "*** #{what} File: #{path} does not exist.#{how} Nothing was changed."
        end

        def header_missing(hunk, outcome)
          "#{hunk} does not match: its @@ line #{outcome.header.inspect} is not in the file at or after line " \
            "#{outcome.from}. Give the exact text of a line of the file (such as a class or def line) after @@, " \
            'or a bare @@.'
        end

        def lines_missing(hunk, outcome, hunks)
          where = outcome.end_of_file? ? 'at the end of the file (*** End of File)' : "at or after line #{outcome.from}"
          order = hunks > 1 ? ' Hunks apply in order, each below the one before.' : ''
          "#{hunk} does not match: its context and removed lines, from #{outcome.first_line.inspect}, are not in " \
            "the file #{where}.#{order} Read the file again and copy those lines exactly."
        end

        def ambiguous(hunk, outcome)
          lines = outcome.lines
          more = outcome.count > lines.size ? " and #{outcome.count - lines.size} more" : ''
          "#{hunk} is ambiguous: its context and removed lines match in #{outcome.count} places (at lines " \
            "#{lines.join(', ')}#{more}). Add more context lines, or an @@ line with the class or def above " \
            'the change, so it matches in one place.'
        end

        def out_of_time(hunk)
          "#{hunk}: apply_patch ran out of time finding the hunks (one call may take #{ApplyPatch::TIMEOUT} s). " \
            'Split the patch over several calls, and give each hunk a few exact context lines and an @@ line ' \
            'with the class or def above the change.'
        end

        def too_large(path, size, room)
          "#{path} would grow to #{mb(size)} MB, and with the files before it this call's new contents would " \
            "pass the #{mb(FileStores::Native::MAX_EDIT_CALL_RESULT)} MB one call may make (#{mb(room)} MB were " \
            'left). Change fewer or smaller files per call.'
        end

        def mb(bytes) = bytes / 1_048_576
      end
    end
  end
end
