# frozen_string_literal: true

module RubyLLM
  class FileStore
    module Tools
      # The words edit_file answers with when an edit does not apply (a
      # Native::EditOutcome that failed), saying what to do instead.
      module EditRefusal # :nodoc:
        module_function

        # The message for edit +number+ on +path+, whose outcome failed;
        # +room+ is the bytes the call had left of MAX_EDIT_CALL_RESULT.
        def message(outcome, number, path, room)
          case outcome.failure
          when :not_found then "Edit #{number}: old_text does not appear in #{path}"
          when :too_large then too_large(number, path, outcome.size, room)
          when :ambiguous
            "Edit #{number}: old_text appears #{outcome.count} times in #{path}; add more context or set replace_all"
          else "Edit #{number}: old_text is empty"
          end
        end

        def too_large(number, path, size, room)
          per_file = FileStores::Native::MAX_EDIT_RESULT
          if size > per_file
            return "Edit #{number}: #{path} would grow to #{mb(size)} MB, over the #{mb(per_file)} MB an edit " \
                   'may make; replace fewer spans'
          end

          "Edit #{number}: #{path} would grow to #{mb(size)} MB, and with the files before it this call's new " \
            "contents would pass the #{mb(FileStores::Native::MAX_EDIT_CALL_RESULT)} MB one edit_file call may " \
            "make (#{mb(room)} MB were left); nothing was changed. Edit fewer or smaller files per call."
        end

        def mb(bytes) = bytes / 1_048_576
      end
    end
  end
end
