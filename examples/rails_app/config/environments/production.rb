# frozen_string_literal: true

require 'active_support/core_ext/integer/time'

Rails.application.configure do
  # Code is not reloaded between requests, and the whole app is loaded at boot.
  config.cache_classes = true
  config.eager_load = true
  config.consider_all_requests_local = false

  # Uploaded files on the local disk (see config/storage.yml for options).
  config.active_storage.service = :local

  config.log_level = :info
  config.log_tags = [:request_id]
  config.i18n.fallbacks = true
  config.active_support.report_deprecations = false if config.active_support.respond_to?(:report_deprecations=)
  config.active_record.dump_schema_after_migration = false
end
