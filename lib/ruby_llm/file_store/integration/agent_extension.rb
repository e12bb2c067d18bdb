# frozen_string_literal: true

module RubyLLM
  class FileStore
    module Integration
      # What RubyLLM::Agent gets (from Native.install!): the file_store
      # macro (see AgentFileStore), and with_file_store, file_store and
      # after_file_write on agents. The adapter of the loaded ruby_llm
      # applies the declaration to every chat the agent builds (see
      # Adapters::AgentHooks); with none, the macro raises
      # IncompatibleRubyLLMError.
      module AgentExtension # :nodoc:
        # Class-level: the macro.
        module ClassMethods # :nodoc:
          # Declares the store of every chat this agent builds; takes the
          # arguments of with_file_store, or a lambda. Subclasses inherit
          # it; file_store nil removes it.
          def file_store(*args, **options)
            Adapters.current!('the agent file_store macro')
            @file_store_declaration = AgentFileStore.declare(*args, **options)
          end

          # The declaration in force: this class's, or its nearest parent's.
          def file_store_declaration
            return @file_store_declaration if instance_variable_defined?(:@file_store_declaration)

            superclass.respond_to?(:file_store_declaration) ? superclass.file_store_declaration : nil
          end
        end

        # Instance-level: the chat's file methods.
        module InstanceMethods # :nodoc:
          def with_file_store(*args, **options)
            chat.with_file_store(*args, **options)
          end

          def file_store
            chat.file_store
          end

          def after_file_write(&)
            chat.after_file_write(&)
          end
        end
      end
    end
  end
end
