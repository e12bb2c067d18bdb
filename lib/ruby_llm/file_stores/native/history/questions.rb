# frozen_string_literal: true

module RubyLLM
  module FileStores
    module Native
      module History
        # A chat's questions and the checkpoint taken before each, for
        # rewind(to: message). Included by HistoryMethods.
        module Questions
          # Remembers +checkpoint+ as the one taken before +message+ (a chat's
          # user message: a saved record, or a RubyLLM::Message) was asked:
          # rewind(to: message) goes back to it. Chats do it for each question.
          def remember_question(message, checkpoint)
            key = History.message_key(message)
            with_history { |log| log.remember_question(key, checkpoint.id) }
            checkpoint
          end

          # The checkpoint taken before +message+ was asked, or nil.
          def question_checkpoint(message)
            key = History.message_key(message)
            with_history { |log| log.question(key)&.then { |id| RubyLLM::FileStore::Checkpoint.new(id:) } }
          end

          private

          def to_question(message)
            question_checkpoint(message) ||
              raise(RubyLLM::FileStore::HistoryError, 'that message has no checkpoint in this store: it was asked ' \
                                                      'before its history was on, or in another chat')
          end
        end
      end
    end
  end
end
