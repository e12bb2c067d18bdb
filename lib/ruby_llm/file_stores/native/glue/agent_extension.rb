# frozen_string_literal: true

module RubyLLM
  module FileStores
    module Native
      module Glue
        # What RubyLLM::Agent gets (from Native.install!): the file_store
        # macro (see AgentFileStore), applied to every chat the agent builds,
        # and with_file_store, file_store and after_file_write on agents.
        module AgentExtension
          # Class-level: the macro and its application.
          module ClassMethods
            # Declares the store of every chat this agent builds; takes the
            # arguments of with_file_store, or a lambda. Subclasses inherit
            # it; file_store nil removes it.
            def file_store(*args, **options)
              @file_store_declaration = AgentFileStore.declare(*args, **options)
            end

            # The declaration in force: this class's, or its nearest parent's.
            def file_store_declaration
              ancestors.each do |klass|
                next unless klass.is_a?(Class)
                return klass.instance_variable_get(:@file_store_declaration) if
                  klass.instance_variable_defined?(:@file_store_declaration)
              end
              nil
            end

            def apply_configuration(chat, input_values:, persist_instructions:)
              result = super
              declaration = file_store_declaration
              declaration&.apply(chat, runtime_context(chat:, inputs: input_values))
              result
            end
          end

          # Instance-level: the chat's file methods.
          module InstanceMethods
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
end
