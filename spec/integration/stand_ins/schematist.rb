# frozen_string_literal: true

# Stand-in for the schematist gem: a Schema whose class DSL accepts and
# ignores declarations, and describes an empty object.
module Schematist
  class Schema
    def self.create(&block)
      Class.new(self).tap { |klass| klass.class_eval(&block) if block }
    end

    def self.method_missing(_name, *_args, **_options, &block)
      block&.call
      nil
    end

    def self.respond_to_missing?(*) = true

    def self.to_json_schema = new.to_json_schema

    def to_json_schema
      { name: 'schema', schema: { type: 'object', properties: {}, required: [] } }
    end

    def to_json(*args) = to_json_schema.to_json(*args)
  end
end
