# frozen_string_literal: true

module RubyLLM
  class FileStore
    module Tools
      # apply_patch: changes files with a patch in OpenAI's apply_patch
      # ("V4A") format, the one GPT-5 models and Codex write. Every file of
      # the patch is checked and every hunk applied before anything is
      # written: one that does not apply changes nothing. The parsing and
      # matching are native (FileStores::Native::Patch).
      module ApplyPatch
        include PatchWrites
        include PatchPaths

        # Seconds the hunks of one call may take to find, over all its files
        # (from when it holds the store's lock); past them the call answers
        # an error and writes nothing.
        TIMEOUT = 10

        TOOL_NAME = 'apply_patch'
        DESCRIPTION = <<~TEXT.strip
          Changes files with a patch. The patch starts with "*** Begin Patch" and ends with "*** End Patch";
          between them, each file is one of:
          "*** Add File: PATH" then the new file's lines, each starting with +;
          "*** Delete File: PATH";
          "*** Update File: PATH", optionally "*** Move to: NEW_PATH", then hunks. A hunk starts with "@@",
          optionally followed by a class or function name to find the place ("@@ def full_name"; several @@
          lines narrow it down), then lines starting with " " (context, unchanged), "-" (removed) or "+"
          (added). Give about 3 lines of context above and below each change, exactly as in the file.
          "*** End of File" after a hunk's lines anchors it at the end of the file.
          Hunks apply in order, each below the one before. If any hunk does not apply, no file is changed.
          Read each file with read_file before updating, deleting, moving or replacing it.
        TEXT
        PARAMETERS = Behaviour.arguments(
          ['patch'],
          patch: { type: 'string', description: 'The whole patch, from "*** Begin Patch" to "*** End Patch".' }
        )

        # One file of the patch, checked and ready to write. +content+: the
        # new bytes (nil for a delete, or a move without hunks); +replaces+:
        # an existing file it overwrites (an Add's path, a move's destination).
        Step = Struct.new(:kind, :path, :move_to, :content, :hunks, :replaces, keyword_init: true)

        # What the rest of the call may use: +room+ bytes of new content, and
        # time until +deadline+ (a monotonic clock reading).
        Budget = Struct.new(:room, :deadline) do
          def seconds_left = deadline - Process.clock_gettime(Process::CLOCK_MONOTONIC)
        end
        private_constant :Step, :Budget

        def execute(patch: nil)
          unless patch.is_a?(String) && !patch.strip.empty?
            raise Refusal, 'patch is required: the patch text, from "*** Begin Patch" to "*** End Patch"'
          end

          parsed = parse_patch(patch)
          done = store.with_lock do
            refuse_read_only_store(parsed)
            steps = plan(parsed)
            check_paths(steps)
            write_all(steps)
          end
          summary = done.join(', ')
          "#{summary[0].upcase}#{summary[1..]}."
        end

        private

        def parse_patch(text)
          FileStores::Native::Patch.parse(text.b)
        rescue ArgumentError => e
          raise Refusal, "The patch is not valid: #{e.message}. Nothing was changed."
        end

        def refuse_read_only_store(parsed)
          return unless store.read_only?

          raise Refusal, RubyLLM::FileStore::ReadOnlyError.new(RubyLLM::FileStore.path(parsed.path(0))).message
        end

        # Checks every file and applies every hunk, holding the new contents;
        # together they may take at most MAX_EDIT_CALL_RESULT bytes, as one
        # edit_file call's, and TIMEOUT seconds.
        def plan(parsed)
          budget = Budget.new(FileStores::Native::MAX_EDIT_CALL_RESULT,
                              Process.clock_gettime(Process::CLOCK_MONOTONIC) + TIMEOUT)
          seen = {}
          Array.new(parsed.size) do |i|
            step = plan_one(parsed, i, patch_path(parsed.path(i), seen), budget, seen)
            budget.room -= step.content.bytesize if step.content
            step
          end
        end

        def plan_one(parsed, index, path, budget, seen)
          case parsed.kind(index)
          when :add
            Step.new(kind: :add, path:, content: parsed.added_content(index), replaces: existing(path, 'Add'))
          when :delete
            existing(path, 'Delete') || raise(Refusal, PatchRefusal.missing(path, 'Delete'))
            Step.new(kind: :delete, path:)
          else plan_update(parsed, index, path, budget, seen)
          end
        end

        def plan_update(parsed, index, path, budget, seen)
          existing(path, 'Update') || raise(Refusal, PatchRefusal.missing(path, 'Update'))
          move_to = parsed.move_to(index)
          move_to &&= patch_path(move_to, seen)
          hunks = parsed.hunk_count(index)
          Step.new(kind: :update, path:, move_to:, hunks:,
                   content: (updated(parsed, index, path, hunks, budget) if hunks.positive?),
                   replaces: move_to && existing(move_to, 'Move to'))
        end

        # The hunks apply to the file's text as read_file shows it, and the
        # result is in the file's encoding, with its byte order mark (see
        # EditFile#apply_to).
        def updated(parsed, index, path, hunks, budget)
          outcome = parsed.apply(index, store.read(path), budget.room, budget.seconds_left)
          outcome.applied? ? outcome.content : raise(Refusal, PatchRefusal.message(outcome, path, hunks, budget.room))
        rescue RubyLLM::FileStore::ConversionError => e
          raise Refusal, PatchRefusal.unwritable(path, e)
        end
      end
    end
  end
end
