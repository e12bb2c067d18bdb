# frozen_string_literal: true

module RubyLLM
  class FileStore
    module Integration
      # What acts_as_chat records get when ruby_llm's Rails integration is
      # loaded (Native.install! puts it in, through install_when_loaded):
      # the model includes RubyLLM::ActiveRecord::HasChatFiles (its
      # ruby_llm_chat_files rows, destroyed with it, when Active Storage is
      # loaded), and the record answers with_file_store, file_store and
      # after_file_write, which configure its to_llm chat:
      #
      #   chat = Chat.create!(model: 'gpt-4.1').with_file_store  # its Active Storage store
      #   chat.ask 'Summarize these', with: params[:files]
      #   chat.file_store.list
      #   chat.with_file_store(owner: Current.user)             # that store, for_owner(Current.user)
      #
      # A bare with_file_store gives the record's default_file_store,
      # RubyLLM::FileStore::ActiveStorage.new(record); override it in the
      # model for another (say, one with max_bytes:).
      #
      # A chat loaded again keeps its store: when a saved record builds its
      # to_llm chat (the first ask, complete or with_* after Chat.find, or
      # Agent.find) and the chat has any rows in ruby_llm_chat_files (its
      # own or any owner's), the chat gets default_file_store again, with
      # the default tools and inline limit and no owner, so the next job
      # sees its files and the model keeps its file tools. Nothing else is
      # remembered: a chat with no file yet, a folder or memory store, the
      # tools:, inline_limit: and owner: given are given again by
      # with_file_store or by the agent's file_store macro, which replaces
      # the store applied on load (file_store nil removes it).
      #
      # A question's attachments that are already in Active Storage (a
      # blob given to ask, or the blob ruby_llm uploaded for the message
      # record) are kept by that blob (see ChatFiles::AttachmentBlobs), so the
      # message's attachment and the chat's file share one copy. Inside a
      # transaction, where Active Storage uploads only after the commit,
      # the file is a copy of its own.
      module RecordExtension # :nodoc:
        LOCK = Mutex.new
        private_constant :LOCK

        # Prepended to ruby_llm's acts_as_chat: the model gets its files too.
        module ActsAsChat # :nodoc:
          def acts_as_chat(*args, **options, &)
            result = super
            RecordExtension.equip(self)
            result
          end
        end

        class << self
          # Installs now when ruby_llm's acts_as is loaded, else when
          # Active Record loads (ruby_llm's Railtie loads acts_as then, and
          # this requires it first when its hook runs after this one).
          # Without Active Support, does nothing: call install! after
          # requiring ruby_llm/active_record/acts_as.
          def install_when_loaded
            return install! if defined?(::RubyLLM::ActiveRecord::ActsAs)
            return false unless defined?(::ActiveSupport) && ::ActiveSupport.respond_to?(:on_load)

            first = LOCK.synchronize { @waiting ? false : (@waiting = true) }
            # Outside the lock: the hook runs at once when Active Record is loaded.
            ::ActiveSupport.on_load(:active_record) { RecordExtension.install!(load: true) } if first
            false
          end

          def installed? = @installed == true

          # Prepends ActsAsChat and equips the models that declared
          # acts_as_chat already. +load+ requires ruby_llm's acts_as and
          # chat methods when they are not loaded. Never raises for the
          # ruby_llm version: with no adapter for its records, records get
          # with_file_store, which raises IncompatibleRubyLLMError when
          # called. Returns true when it installed, false when it had or
          # acts_as is not loaded.
          def install!(load: false)
            LOCK.synchronize do
              return false if installed?

              require 'ruby_llm/active_record/acts_as' if load && !defined?(::RubyLLM::ActiveRecord::ActsAs)
              return false unless defined?(::RubyLLM::ActiveRecord::ActsAs::ClassMethods)

              require 'ruby_llm/active_record/chat_methods' unless defined?(::RubyLLM::ActiveRecord::ChatMethods)
              ::RubyLLM::ActiveRecord::ActsAs::ClassMethods.prepend(ActsAsChat)
              @installed = true
            end
            equip_existing
            true
          end

          # Gives +model+ (an acts_as_chat model) its files and these
          # methods, once.
          def equip(model)
            return model if model.include?(RecordExtension)

            if active_storage?
              RubyLLM::FileStore::ActiveStorage.load_models!
              unless model.include?(RubyLLM::ActiveRecord::HasChatFiles)
                model.include(RubyLLM::ActiveRecord::HasChatFiles)
              end
            end
            model.include(RecordExtension)
            adapter = Adapters.records
            model.include(adapter::Record) if adapter
            model
          end

          # Whether +record+'s chat has rows in ruby_llm_chat_files, and so
          # gets its store again when loaded.
          def files?(record)
            record.persisted? && record.respond_to?(:ruby_llm_chat_files) &&
              RubyLLM::ActiveRecord::ChatFile.table_exists? && record.ruby_llm_chat_files.exists?
          end

          # The store +record+'s chat gets when ruby_llm builds it (see
          # file_store_chat_built), or nil: its default_file_store when it
          # has files.
          def store_when_built(record)
            record.default_file_store if files?(record)
          end

          # Keeps the attachments of +message_record+ (a question ruby_llm
          # just saved, with its Active Storage attachments) in +chat+'s
          # store by their blobs, before ruby_llm adds the question to the
          # chat, which then finds them kept.
          def keep_attachments(chat, message_record, attachments)
            store = chat.respond_to?(:file_store) ? chat.file_store : nil
            return unless store.respond_to?(:keep_blob) && message_record.respond_to?(:attachments)
            return unless message_record.respond_to?(:role) && message_record.role.to_s == 'user'

            list = Array(attachments)
            return if list.empty?

            blobs = message_record.attachments.map(&:blob)
            ChatFiles::AttachmentBlobs.pair(list, blobs).each do |attachment, blob|
              chat.keep_file_store_attachment(attachment, blob)
            end
          end

          private

          def equip_existing
            return unless defined?(::ActiveRecord::Base) && defined?(::RubyLLM::ActiveRecord::ChatMethods)

            ::ActiveRecord::Base.descendants.each do |model|
              equip(model) if model.include?(::RubyLLM::ActiveRecord::ChatMethods)
            end
          end

          def active_storage?
            RubyLLM::FileStore::ActiveStorage.missing_parts.empty?
          end
        end

        # Attaches a store to the record's chat (see
        # ChatExtension#with_file_store; a bare call gives
        # default_file_store). Returns the record, so calls chain.
        def with_file_store(store = ChatFiles::Setup::DEFAULT, tools: FileStore::Tools::DEFAULT,
                            inline_limit: FileStore::Tools::DEFAULT_INLINE_LIMIT, owner: nil, mounts: nil,
                            history: nil)
          RecordChecks.saved!(self) unless store.nil?
          to_llm.with_file_store(store, tools:, inline_limit:, owner:, mounts:, history:)
          self
        end

        # The chat's store, or nil.
        def file_store
          to_llm.file_store
        end

        # Registers a block for each StoredFile the conversation writes
        # (see ChatExtension#after_file_write). Returns the record.
        def after_file_write(&)
          to_llm.after_file_write(&)
          self
        end

        # The store a bare with_file_store gives this chat: its files in
        # Active Storage, keeping their history when the chat has one (a
        # reload, another worker: its checkpoints go on, and the keep: and
        # keep_for: kept with it apply; see ActiveStorage::VersionLimits).
        def default_file_store
          RubyLLM::FileStore::ActiveStorage.new(self, history: FileStores::Native::History::Stores.kept_for?(self))
        end

        private

        # The chat this record built (to_llm), once ruby_llm built it.
        attr_reader :file_store_chat

        # Called by the adapter's Record hooks with the chat to_llm returns:
        # the first time (a chat built for this record), the chat learns
        # its record and, when the record has files, gets its store again.
        def file_store_chat_built(chat)
          return chat if chat.equal?(@file_store_chat)

          @file_store_chat = chat
          chat.file_store_record = self
          chat.with_file_store if RecordExtension.files?(self)
          chat
        end
      end
    end
  end
end
