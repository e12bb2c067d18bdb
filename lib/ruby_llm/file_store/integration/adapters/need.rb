# frozen_string_literal: true

module RubyLLM
  class FileStore
    module Integration
      module Adapters
        # One ruby_llm method (or constant) an adapter relies on: what it
        # is, what the adapter uses it for, and how to tell the loaded
        # ruby_llm has it.
        class Need # :nodoc:
          attr_reader :name, :use

          # A private instance method of +owner+ (a constant path).
          def self.private_method(owner, name, use, arity: nil)
            new("#{owner}##{name}", use) do
              target = Need.constant(owner)
              target&.private_method_defined?(name) && (arity.nil? || target.instance_method(name).arity == arity)
            end
          end

          # A public instance method of +owner+.
          def self.public_method(owner, name, use)
            new("#{owner}##{name}", use) { Need.constant(owner)&.public_method_defined?(name) }
          end

          # A class method of +owner+, private or public.
          def self.class_method(owner, name, use)
            new("#{owner}.#{name}", use) do
              target = Need.constant(owner)&.singleton_class
              target && (target.public_method_defined?(name) || target.private_method_defined?(name))
            end
          end

          # A constant.
          def self.constant_named(name, use)
            new(name, use) { !Need.constant(name).nil? }
          end

          # The constant at +path+ ("RubyLLM::Chat"), or nil.
          def self.constant(path)
            path.split('::').reject(&:empty?).reduce(Object) do |scope, name|
              return nil unless scope.is_a?(Module) && scope.const_defined?(name, false)

              scope.const_get(name, false)
            end
          end

          def initialize(name, use, &check)
            @name = name
            @use = use
            @check = check
          end

          def met?
            @check.call ? true : false
          end

          def to_s = "#{name} (for #{use})"
        end
      end
    end
  end
end
