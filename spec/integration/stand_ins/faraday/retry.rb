# frozen_string_literal: true

# Stand-in for the faraday-retry gem on Faraday 1: Faraday 1's own retry
# middleware, and the :json request and response middleware that
# Faraday 2 has and Faraday 1.1 lacks.
require 'faraday'
require 'json'

module Faraday
  module Retry
    Middleware = Faraday::Request::Retry
  end

  # Encodes Hash and Array bodies as JSON.
  class JsonRequestStandIn < Faraday::Middleware
    def call(env)
      on_request(env)
      @app.call(env)
    end

    def on_request(env)
      return unless env.body.is_a?(Hash) || env.body.is_a?(Array)

      env.request_headers['Content-Type'] ||= 'application/json'
      env.body = JSON.generate(env.body)
    end
  end

  # Parses JSON response bodies.
  class JsonResponseStandIn < Faraday::Middleware
    def call(env)
      @app.call(env).on_complete { |response_env| on_complete(response_env) }
    end

    def on_complete(env)
      type = env.response_headers['Content-Type'].to_s
      body = env.body
      return unless body.is_a?(String) && !body.strip.empty? && type.include?('json')

      env.body = JSON.parse(body)
    rescue JSON::ParserError
      nil
    end
  end

  { Request => JsonRequestStandIn, Response => JsonResponseStandIn }.each do |kind, middleware|
    kind.lookup_middleware(:json)
  rescue Faraday::Error
    kind.register_middleware(json: middleware)
  end
end
