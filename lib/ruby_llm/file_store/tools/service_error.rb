# frozen_string_literal: true

module RubyLLM
  class FileStore
    module Tools
      # Errors from inside a storage service that Active Storage ships (S3,
      # GCS, Azure, Disk, Mirror over them): an outage, a 500 or 503, a reset
      # connection, a timeout, a full or broken disk. A worker meets them
      # routinely, and the model can only try again later, so the tools
      # answer them as { error: } (see DatabaseError) rather than raise,
      # which would leave the tool call without a result and jam the chat.
      #
      # Told apart by name, so none of the services' gems need be loaded:
      # an error whose class (or an ancestor) is in a service client's
      # namespace, or an I/O error (a system call's, a socket's, a timeout)
      # raised inside a service, found by its backtrace: reading inward from
      # where it was raised, the first frame of a service's code comes before
      # any frame of this gem (an error in a block this gem gave the service,
      # such as a download's, is this gem's own). Programming errors
      # (NoMethodError, ArgumentError...) still raise.
      module ServiceError # :nodoc:
        # The namespaces of the service clients' errors: aws-sdk-s3
        # (Aws::S3::Errors::ServiceError, Aws::Errors::...) and its HTTP layer
        # (Seahorse::Client::NetworkingError), google-cloud-storage
        # (Google::Cloud::Error) and google-apis (Google::Apis::Error),
        # azure-storage-blob (Azure::Core::Http::HTTPError,
        # Azure::Storage::...).
        NAMESPACES = %w[Aws:: Seahorse:: Google::Cloud:: Google::Apis:: Azure::].freeze

        # I/O errors that count when a service raised them (see above); by
        # name, for the HTTP clients the services use.
        IO_ERRORS = %w[SystemCallError IOError SocketError Timeout::Error OpenSSL::OpenSSLError Net::OpenTimeout
                       Net::ReadTimeout Net::WriteTimeout Net::HTTPBadResponse Zlib::Error].freeze
        IO_NAMESPACES = %w[Faraday:: HTTPClient:: Net::HTTP].freeze

        # Where a service's code lives, by the files the services and their
        # clients require (the same wherever the gems are installed).
        SERVICE_CODE = %r{/(active_storage/service|aws-sdk-\w+|aws-sigv4|seahorse|google/cloud/storage|google/apis|
                           googleauth|azure/storage|azure/core)(/|\.rb)}x

        # Where this gem's code lives.
        OWN_CODE = "#{File.expand_path('../..', __dir__)}/".freeze

        module_function

        # Whether +error+ came from inside a storage service.
        def match?(error)
          names = error.class.ancestors.map { |kind| kind.name.to_s }
          return true if names.any? { |name| NAMESPACES.any? { |space| name.start_with?(space) } }

          io_error?(names) && raised_in_service?(error)
        end

        # What the model sees: the file store is unreachable, and to try
        # again. +detail+: the error's first line, cut.
        def message_for(error, detail)
          "The file store could not be reached: its storage service failed (#{error.class}: #{detail}). " \
            "Try again in a moment, or tell the user the chat's files are unavailable now."
        end

        def io_error?(names)
          names.any? do |name|
            IO_ERRORS.include?(name) || IO_NAMESPACES.any? { |space| name.start_with?(space) }
          end
        end

        def raised_in_service?(error)
          (error.backtrace_locations || []).each do |location|
            path = location.absolute_path || location.path.to_s
            return false if path.start_with?(OWN_CODE)
            return true if path.match?(SERVICE_CODE)
          end
          false
        end
      end
    end
  end
end
