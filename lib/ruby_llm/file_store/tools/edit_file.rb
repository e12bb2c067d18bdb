# frozen_string_literal: true

module RubyLLM
  class FileStore
    module Tools
      # edit_file: exact replacements, one or several in one call, in one or
      # several files, all or nothing.
      module EditFile
        TOOL_NAME = 'edit_file'
        DESCRIPTION = <<~TEXT.strip
          Changes part of a file by replacing old_text with new_text. old_text must match the file exactly
          (spaces and line breaks included) and appear once, unless replace_all is true. For several changes
          in one call, possibly in several files, pass edits: a list of { path, old_text, new_text,
          replace_all }, applied in order, each on the result of the ones before; an edit without path uses
          the call's path. If any edit fails, none is written. Read each file with read_file first; if it
          changed since you read it, read it again. To create a file, use write_file.
        TEXT
        EDIT_PROPERTIES = {
          path: { type: 'string', description: 'The file to change, like "app/models/user.rb".' },
          old_text: { type: 'string', description: 'The exact text to replace.' },
          new_text: { type: 'string', description: 'The text to put in its place.' },
          replace_all: { type: 'boolean', description: 'Replace every occurrence. Default: false.' }
        }.freeze
        PARAMETERS = Behaviour.arguments(
          nil, **EDIT_PROPERTIES,
          edits: { type: 'array', description: 'Several edits, applied in order. Each may name its own path.',
                   items: Behaviour.arguments(%w[old_text new_text], **EDIT_PROPERTIES) }
        )

        Change = Struct.new(:number, :path, :old_text, :new_text, :replace_all)
        private_constant :Change

        # Applies one edit, or the +edits+ in order, all or nothing; what the model sees.
        def execute(path: nil, old_text: nil, new_text: nil, replace_all: nil, edits: nil)
          changes = collect_changes(path, old_text, new_text, replace_all, edits)
          by_path = changes.group_by(&:path)
          results = store.with_lock { apply_all(by_path) }
          summary = results.map { |p, counts| "#{p} (#{plural(counts.sum, 'replacement')})" }.join(', ')
          "Edited #{summary}."
        end

        private

        def collect_changes(path, old_text, new_text, replace_all, edits)
          max = FileStores::Native::MAX_EDITS
          return [change(1, path:, old_text:, new_text:, replace_all:)] if edits.nil?
          raise Refusal, 'Give either old_text and new_text, or edits, not both.' unless old_text.nil? && new_text.nil?
          raise Refusal, 'edits must be a non-empty list of edits.' unless edits.is_a?(Array) && edits.any?
          raise Refusal, "edits holds #{edits.size} edits; one call takes at most #{max}." if edits.size > max

          edits.each_with_index.map do |edit, i|
            raise Refusal, "Edit #{i + 1}: each edit must be an object with old_text and new_text." \
              unless edit.is_a?(Hash)

            edit = Tools.symbolize(edit)
            change(i + 1, **edit, path: edit[:path] || path)
          end
        end

        def change(number, path:, old_text:, new_text:, replace_all: nil, **unknown)
          prefix = "Edit #{number}"
          raise Refusal, "#{prefix}: unknown field #{unknown.keys.first}." if unknown.any?
          raise Refusal, "#{prefix}: path is required." if path.nil? || path == ''
          raise Refusal, "#{prefix}: old_text must be a string." unless old_text.is_a?(String)
          raise Refusal, "#{prefix}: old_text is empty; give the exact text to replace." if old_text.empty?
          raise Refusal, "#{prefix}: new_text must be a string." unless new_text.is_a?(String)
          raise Refusal, "#{prefix}: replace_all must be true or false." unless [nil, true, false].include?(replace_all)

          Change.new(number, path_argument(path), old_text.b, new_text.b, replace_all == true)
        end

        # Checks and applies every file's edits, then writes; nothing is
        # written unless every edit applies. The new contents are held until
        # then, so together they may take at most MAX_EDIT_CALL_RESULT bytes:
        # each file's edits get what the files before left of it.
        def apply_all(by_path)
          room = FileStores::Native::MAX_EDIT_CALL_RESULT
          planned = by_path.map do |path, changes|
            file = check_file(path, changes.first.number)
            content, counts = apply_to(path, store.read(path), changes, room)
            room -= content.bytesize
            [path, content, counts, file]
          end
          write_all(planned)
        end

        def check_file(path, number)
          check_read_before_change(path) ||
            raise(Refusal, "Edit #{number}: #{path} does not exist. Create it with write_file.")
        end

        # The edits apply to the file's text as read_file shows it, and the
        # result is written in the file's encoding (UTF-16 and UTF-32 too),
        # with its byte order mark; a file whose text could not be written
        # back as it was raises ConversionError, said for the model here.
        def apply_to(path, bytes, changes, room)
          edits = changes.map { |c| { old_text: c.old_text, new_text: c.new_text, replace_all: c.replace_all } }
          outcome = FileStores::Native.apply_edits_within(bytes, edits, room)
          return [outcome.content, outcome.counts] if outcome.applied?

          raise Refusal, EditRefusal.message(outcome, changes[outcome.index].number, path, room)
        rescue RubyLLM::FileStore::ConversionError => e
          raise Refusal, "Edit #{changes.first.number}: #{path} cannot be edited: #{e.message}. Nothing was changed."
        end

        def write_all(planned)
          written = []
          planned.map do |path, bytes, counts, _file|
            file = store.write(path, bytes)
            store.record_read(path, file.digest || sha256(bytes))
            written << path
            [path, counts]
          rescue RubyLLM::FileStoreFullError => e
            done = written.empty? ? 'No file was changed.' : "Already changed: #{written.join(', ')}."
            raise RubyLLM::FileStoreFullError, "#{e.message} Writing #{path} failed. #{done}"
          end
        end

        def plural(count, word) = "#{count} #{word}#{'s' unless count == 1}"
      end
    end
  end
end
