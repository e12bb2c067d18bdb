# frozen_string_literal: true

require_relative 'boot'

require 'rails'
# Pick the frameworks you want (what rails new --minimal keeps, with Active Job and Active Storage):
require 'active_model/railtie'
require 'active_job/railtie'
require 'active_record/railtie'
require 'active_storage/engine'
require 'action_controller/railtie'

# Require the gems listed in Gemfile, including any gems
# you've limited to :test, :development, or :production.
Bundler.require(*Rails.groups)

module ContractReview
  # The guide's first example: an agent with its own files in Active Storage.
  class Application < Rails::Application
    config.load_defaults Rails::VERSION::STRING.to_f

    # Jobs run in the process that enqueues them (perform_now, or the async adapter).
    config.active_job.queue_adapter = :async
  end
end
