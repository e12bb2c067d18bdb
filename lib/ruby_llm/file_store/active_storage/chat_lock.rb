# frozen_string_literal: true

require 'monitor'

module RubyLLM
  class FileStore
    class ActiveStorage < FileStore
      # Locks a chat's row in the database for the length of a transaction,
      # so a check-and-write holds across processes and machines.
      #
      # PostgreSQL (and MySQL) take SELECT ... FOR UPDATE. SQLite has no row
      # locks, and Rails before 8 opens deferred transactions, where a
      # SELECT takes no lock at all and the later write fails at once with
      # "database is locked". So on SQLite the transaction's first statement
      # is a write to the chat's row (an UPDATE that changes nothing), which
      # takes the database's write lock and waits for it: the busy handler
      # runs, where it would not for a transaction that read first.
      #
      # Before Rails 8, Rails waits with SQLite's own busy timeout, which
      # sleeps in C holding Ruby's global lock, so every thread of the
      # process stops, the one holding the lock included; and with no
      # +timeout+ in database.yml, Rails 8 does not wait at all. SqliteWait
      # installs a handler that sleeps in Ruby instead.
      class ChatLock # :nodoc:
        # A lock on +chat+'s row, held by one store object: reentrant in the
        # thread or fiber holding it.
        def initialize(chat)
          @chat = chat
          @monitor = Monitor.new
          @depth = 0
          @blob_transactions_outside = 0
        end

        # Runs the block in a transaction holding the lock on the chat's row.
        def hold(&block)
          @monitor.synchronize do
            next block.call if @depth.positive?

            @blob_transactions_outside = ::ActiveStorage::Blob.connection.open_transactions # see PendingBlobs
            @depth += 1
            begin
              model = @chat.class
              SqliteWait.around(model.connection) do
                model.transaction do
                  lock_row(model, @chat.id, model.connection)
                  block.call
                end
              end
            ensure
              @depth -= 1
            end
          end
        end

        # Whether this lock's transaction is the outermost one on +connection+
        # (the blobs' database), which a pending blob's row must not wait for.
        def outermost_on?(connection)
          connection.transaction_open? && @depth.positive? && @blob_transactions_outside.zero? &&
            !ChatLock.sqlite?(connection)
        end

        def self.sqlite?(connection)
          connection.adapter_name.match?(/sqlite/i)
        end

        private

        def lock_row(model, id, connection)
          key = model.primary_key
          found = if ChatLock.sqlite?(connection)
                    table = connection.quote_table_name(model.table_name)
                    column = connection.quote_column_name(key)
                    connection.exec_update("UPDATE #{table} SET #{column} = #{column} " \
                                           "WHERE #{column} = #{connection.quote(id)}", 'RubyLLM chat lock')
                  else
                    model.unscoped.where(key => id).lock.pluck(key).size
                  end
          return if found.positive?

          raise ::ActiveRecord::RecordNotFound, "#{model.name} #{id} no longer exists: its files cannot change"
        end

        # A busy handler for SQLite that sleeps in Ruby, letting the
        # process's other threads run while it waits, for as long as the
        # database's timeout (database.yml's +timeout+, in ms; 5 s when
        # unset). Not installed where Rails already waits that way: Rails 8
        # and later with a +timeout+ and the sqlite3 gem 2.0 or later, whose
        # busy_handler_timeout= it then sets. Rails 8 sets none without a
        # +timeout+, and Rails 7 sets SQLite's own busy timeout, which holds
        # the global lock.
        module SqliteWait # :nodoc:
          DEFAULT_TIMEOUT_MS = 5000
          DEPTHS = ObjectSpace::WeakMap.new
          DEPTHS_LOCK = Mutex.new

          module_function

          def around(connection, &block)
            return block.call unless ChatLock.sqlite?(connection)

            raw = connection.raw_connection
            configured = configured_timeout(connection)
            return block.call if rails_waits?(raw, configured) || !raw.respond_to?(:busy_handler)

            install(raw, configured || DEFAULT_TIMEOUT_MS) if enter(raw)
            begin
              block.call
            ensure
              raw.busy_timeout = configured || 0 if leave(raw) # Rails' own setting again
            end
          end

          # Whether Rails set a busy handler on +raw+ that sleeps in Ruby:
          # Rails 8's SQLite adapter calls busy_handler_timeout= when the
          # database has a +timeout+ and the sqlite3 gem has it.
          def rails_waits?(raw, configured)
            !configured.nil? && ::ActiveRecord::VERSION::MAJOR >= 8 && raw.respond_to?(:busy_handler_timeout=)
          end

          # Whether this is the outermost wait on +raw+.
          def enter(raw)
            DEPTHS_LOCK.synchronize { (DEPTHS[raw] = (DEPTHS[raw] || 0) + 1) == 1 }
          end

          # Whether this ends the outermost wait on +raw+.
          def leave(raw)
            DEPTHS_LOCK.synchronize { (DEPTHS[raw] -= 1).zero? }
          end

          def install(raw, timeout_ms)
            started = nil
            raw.busy_handler do |count|
              now = Process.clock_gettime(Process::CLOCK_MONOTONIC)
              started = now if count.to_i.zero? || started.nil?
              next false if (now - started) * 1000 > timeout_ms

              # A millisecond each time, as sqlite3's busy_handler_timeout
              # sleeps: SQLite keeps no queue, and a waiter that backs off
              # longer loses the lock to threads that take it again at once
              # (one of 4 threads waited out its 5 s with backoff to 50 ms).
              sleep(0.001)
              true
            end
          end

          def configured_timeout(connection)
            timeout = connection.pool.db_config.configuration_hash[:timeout]
            timeout && Integer(timeout)
          rescue ArgumentError, TypeError, NoMethodError
            nil
          end
        end
      end
    end
  end
end
