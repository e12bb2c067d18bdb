# frozen_string_literal: true

require 'ipaddr'

module RubyLLM
  module FileStores
    module Native
      # The settings of the fetch that keeps a URL attachment in a chat's
      # files (see FileStore::ChatFiles::UrlFetch):
      #
      #   RubyLLM.configure do |config|
      #     config.attachment_url_max_bytes = 20 * 1024 * 1024   # default 50 MB
      #     config.attachment_url_timeout = 10                    # seconds for the whole fetch, default 30
      #     config.attachment_url_allowed_hosts = ['wiki.intranet', '10.1.0.0/16']   # default none
      #   end
      #
      # +attachment_url_allowed_hosts+ lets the fetch reach addresses it
      # otherwise refuses (loopback, private, link-local): a host name
      # allows whatever that name resolves to, an address or a range
      # (CIDR) allows those addresses. It is for an intranet the app trusts,
      # and for tests against a server on 127.0.0.1; leave it empty
      # otherwise, since a URL comes from whoever typed it.
      module UrlSettings
        DEFAULT_MAX_BYTES = 50 * 1024 * 1024
        DEFAULT_TIMEOUT = 30
        NAMES = %i[attachment_url_max_bytes attachment_url_timeout attachment_url_allowed_hosts].freeze

        def attachment_url_max_bytes
          @attachment_url_max_bytes || DEFAULT_MAX_BYTES
        end

        def attachment_url_max_bytes=(bytes)
          unless bytes.is_a?(Integer) && bytes.positive?
            raise ArgumentError, "attachment_url_max_bytes must be a positive Integer, not #{bytes.inspect}"
          end

          @attachment_url_max_bytes = bytes
        end

        def attachment_url_timeout
          @attachment_url_timeout || DEFAULT_TIMEOUT
        end

        def attachment_url_timeout=(seconds)
          unless seconds.is_a?(Numeric) && seconds.positive? && seconds.finite?
            raise ArgumentError, "attachment_url_timeout must be a positive number of seconds, not #{seconds.inspect}"
          end

          @attachment_url_timeout = seconds
        end

        def attachment_url_allowed_hosts
          @attachment_url_allowed_hosts || [].freeze
        end

        def attachment_url_allowed_hosts=(hosts)
          list = Array(hosts)
          bad = list.reject { |host| (host.is_a?(String) || host.is_a?(IPAddr)) && !host.to_s.strip.empty? }
          unless bad.empty?
            raise ArgumentError, 'attachment_url_allowed_hosts takes host names, addresses and ranges ' \
                                 "(\"wiki.intranet\", \"10.1.0.0/16\"), not #{bad.first.inspect}"
          end

          @attachment_url_allowed_hosts = list.map { |host| host.is_a?(IPAddr) ? host : host.dup.freeze }.freeze
        end

        # Gives +to+ the settings made on +from+ (the stand-in configuration
        # when ruby_llm is required later).
        def self.copy(from, to)
          NAMES.each do |name|
            value = from.instance_variable_get(:"@#{name}")
            to.public_send(:"#{name}=", value) unless value.nil?
          end
        end

        # The settings for one fetch, from RubyLLM.config when it has them.
        def self.current
          config = RubyLLM.respond_to?(:config) ? RubyLLM.config : nil
          config = nil unless config.respond_to?(:attachment_url_max_bytes)
          { max_bytes: config ? config.attachment_url_max_bytes : DEFAULT_MAX_BYTES,
            timeout: config ? config.attachment_url_timeout : DEFAULT_TIMEOUT,
            allowed_hosts: config ? config.attachment_url_allowed_hosts : [] }
        end
      end
    end
  end
end
