# frozen_string_literal: true

module RubyLLM
  class FileStore
    class ActiveStorage < FileStore
      # Runs code when the database transaction in progress commits or rolls
      # back, on Rails 6.1 and later (Rails 7.2's transaction callbacks do not
      # exist on 6.1). It enrolls as a transaction record, as models do, but
      # compares by identity, so two hooks never stand for one another.
      #
      # Errors in the code are logged, not raised: the transaction's outcome
      # is already decided when it runs.
      class TransactionHook # :nodoc:
        # Runs +on_commit+ after the transaction open on +connection+ commits
        # (at once when none is open) and +on_rollback+ if it rolls back.
        def self.add(connection, on_commit: nil, on_rollback: nil)
          hook = new(on_commit, on_rollback)
          if connection.transaction_open?
            connection.add_transaction_record(hook)
          else
            hook.committed!
          end
          hook
        end

        def initialize(on_commit, on_rollback)
          @on_commit = on_commit
          @on_rollback = on_rollback
        end

        # The protocol of Active Record's transaction records.
        def has_transactional_callbacks? = true # rubocop:disable Naming/PredicateName
        def trigger_transactional_callbacks? = true
        def before_committed!; end
        def add_to_transaction(*); end

        def committed!(should_run_callbacks: true)
          run(@on_commit) if should_run_callbacks
        end

        def rolledback!(force_restore_state: false, should_run_callbacks: true) # rubocop:disable Lint/UnusedMethodArgument
          run(@on_rollback) if should_run_callbacks
        end

        private

        def run(code)
          code&.call
        rescue StandardError => e
          ::ActiveRecord::Base.logger&.error("RubyLLM::FileStore::ActiveStorage: #{e.class}: #{e.message}")
        end
      end
    end
  end
end
