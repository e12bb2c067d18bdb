# frozen_string_literal: true

module RubyLLM
  class FileStore
    module Tools
      # What a tool answers when the database or storage service behind its
      # store fails (Active Record's and Active Storage's errors): the model
      # gets { error: } saying what happened, never an exception, which
      # would leave its tool call without a result and jam the chat (ruby_llm
      # main then raises PendingToolCallsError on every later ask). Only
      # these libraries' errors: a programming error in a store still raises.
      module DatabaseError # :nodoc:
        MAX_DETAIL = 300

        module_function

        # Whether +error+ came from the database or the storage service
        # (Active Storage's own errors, and those of inside a service: see
        # ServiceError).
        def match?(error)
          kinds.any? { |kind| error.is_a?(kind) } || ServiceError.match?(error)
        end

        # The message the model sees for +error+: what failed, the error's
        # first line, and what to do.
        def message_for(error)
          detail = error.message.to_s.lines.first.to_s.strip
          detail = "#{detail[0, MAX_DETAIL]}..." if detail.length > MAX_DETAIL
          return ServiceError.message_for(error, detail) if ServiceError.match?(error)

          hint = if detail.match?(/index row|too long|value too long|ProgramLimitExceeded/i)
                   'The path is too long for the database: use a shorter path.'
                 else
                   "Try again, or tell the user the chat's files are unavailable now."
                 end
          "The chat's files could not be reached: the database or storage failed (#{error.class}: #{detail}). " + hint
        end

        def kinds
          [(::ActiveRecord::ActiveRecordError if defined?(::ActiveRecord::ActiveRecordError)),
           (::ActiveStorage::Error if defined?(::ActiveStorage::Error))].compact
        end
      end
    end
  end
end
