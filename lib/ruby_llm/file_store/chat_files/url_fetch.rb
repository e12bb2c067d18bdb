# frozen_string_literal: true

require 'ipaddr'
require 'net/http'
require 'openssl'
require 'resolv'
require 'timeout'
require 'uri'

module RubyLLM
  class FileStore
    class ChatFiles
      # Fetches a URL attachment's bytes to keep them in a chat's files, as
      # a careful client: a URL is whatever a user typed, so the fetch is a
      # request from the server that must not reach what the user cannot.
      #
      #   UrlFetch.new(max_bytes: 50 << 20, timeout: 30).call('https://example.com/clip.mp4')  # => bytes
      #
      # - http and https only, also after a redirect;
      # - the host is resolved here, each address checked (none of
      #   BlockedAddresses: loopback, private, link-local where the cloud
      #   metadata services answer, ...), and the connection made to that
      #   very address, with the
      #   host's name in the Host header and TLS (SNI, certificate check);
      #   no proxy from the environment;
      # - redirects are followed here, at most MAX_REDIRECTS, each checked
      #   as the first URL;
      # - at most +max_bytes+ are read (a larger Content-Length is refused
      #   before the body), and the whole fetch, redirects and name
      #   lookups included, takes at most +timeout+ seconds;
      # - no compressed encoding is asked for, so the bytes read are the
      #   bytes kept.
      #
      # Anything that goes wrong raises Refused, whose message says why in
      # words for the model ("the server answered 404 Not Found").
      # +allowed_hosts+ (host names, addresses, CIDR ranges) are reached
      # even on addresses otherwise refused (see UrlSettings).
      class UrlFetch # :nodoc:
        # A URL that was not fetched; the message says why.
        class Refused < StandardError; end # :nodoc:

        MAX_REDIRECTS = 5

        def initialize(max_bytes:, timeout:, allowed_hosts: [])
          @max_bytes = max_bytes
          @timeout = timeout
          ranges, names = Array(allowed_hosts).partition { |host| host.is_a?(IPAddr) || address?(host) }
          @allowed_ranges = ranges.map { |range| range.is_a?(IPAddr) ? range : IPAddr.new(range) }
          @allowed_names = names.map { |name| name.to_s.downcase }
        end

        # The bytes at +url+ (a String or URI), binary. Raises Refused.
        def call(url)
          @deadline = now + @timeout
          Timeout.timeout(@timeout) { follow(parse(url.to_s)) }
        rescue Timeout::Error # Net::HTTP's own timeouts too
          raise Refused, "it took longer than #{@timeout} s to fetch"
        rescue Resolv::ResolvError, SocketError, SystemCallError, IOError, OpenSSL::SSL::SSLError,
               Net::HTTPBadResponse, Net::ProtocolError, Zlib::Error => e
          raise Refused, "the connection failed (#{e.class}: #{e.message})"
        end

        private

        def follow(uri)
          (MAX_REDIRECTS + 1).times do
            outcome = get(uri)
            return outcome unless outcome.is_a?(URI::Generic)

            uri = outcome
          end
          raise Refused, "it redirected more than #{MAX_REDIRECTS} times"
        end

        def parse(text)
          uri = URI.parse(text)
          unless %w[http https].include?(uri.scheme&.downcase)
            raise Refused, "only http and https URLs are fetched, not #{uri.scheme ? "#{uri.scheme}:" : 'this one'}"
          end
          raise Refused, 'it names no host' if uri.hostname.to_s.empty?

          uri
        rescue URI::Error
          raise Refused, 'it is not a valid URL'
        end

        # The bytes, or the URI a redirect points to.
        def get(uri)
          http = connection(uri)
          http.start do
            request = Net::HTTP::Get.new(uri)
            request['Accept-Encoding'] = 'identity'
            request['User-Agent'] = "ruby_llm-file_stores-native/#{FileStores::Native::VERSION}"
            http.request(request) { |response| return answer(http, uri, response) }
          end
        end

        def connection(uri)
          host = uri.hostname
          # nil: no proxy, not even one from the environment, which would
          # connect to addresses this never checked.
          http = Net::HTTP.new(host, uri.port, nil)
          http.ipaddr = address_for(host)
          http.use_ssl = uri.scheme.casecmp?('https')
          http.max_retries = 0 if http.respond_to?(:max_retries=)
          limit = left
          http.open_timeout = http.read_timeout = http.ssl_timeout = limit
          http.write_timeout = limit if http.respond_to?(:write_timeout=)
          http
        end

        def answer(http, uri, response)
          case response
          when Net::HTTPRedirection
            location = response['location']
            raise Refused, "the server answered #{response.code} with no Location" if location.to_s.empty?

            parse(uri.merge(location).to_s)
          when Net::HTTPSuccess then body(http, response)
          else raise Refused, "the server answered #{response.code} #{response.message}".strip
          end
        rescue URI::Error
          raise Refused, 'it redirected to an invalid URL'
        end

        def body(http, response)
          length = response['content-length']
          too_big! if length.to_s.match?(/\A\d+\z/) && length.to_i > @max_bytes
          bytes = String.new(encoding: Encoding::BINARY)
          response.read_body do |chunk|
            bytes << chunk
            too_big! if bytes.bytesize > @max_bytes
            http.read_timeout = left
          end
          bytes
        end

        def too_big!
          raise Refused, "it is larger than #{StoredFile.human_size(@max_bytes)}, the most a URL attachment is " \
                         'fetched for'
        end

        # The address to connect to for +host+: the first one allowed.
        def address_for(host)
          addresses = address?(host) ? [host] : resolve(host)
          raise Refused, "#{host} has no address" if addresses.empty?

          named = @allowed_names.include?(host.downcase)
          chosen = addresses.find do |address|
            named || allowed_address?(address) || BlockedAddresses.kind(address).nil?
          end
          return chosen if chosen

          first = addresses.first
          raise Refused, "#{host == first ? host : "#{host} (#{first})"} is #{BlockedAddresses.kind(first)}"
        end

        def allowed_address?(address)
          ip = IPAddr.new(address)
          @allowed_ranges.any? { |range| range.family == ip.family && range.include?(ip) }
        end

        # The host's addresses, from the hosts file and DNS, within the
        # time left (Resolv: pure Ruby, so the fetch's timeout stops it).
        def resolve(host)
          dns = Resolv::DNS.new
          dns.timeouts = left
          Resolv.new([Resolv::Hosts.new, dns]).getaddresses(host).uniq
        ensure
          dns&.close
        end

        def address?(host)
          IPAddr.new(host.to_s)
          true
        rescue IPAddr::Error
          false
        end

        def left
          remaining = @deadline - now
          raise Refused, "it took longer than #{@timeout} s to fetch" unless remaining.positive?

          remaining
        end

        def now = Process.clock_gettime(Process::CLOCK_MONOTONIC)
      end
    end
  end
end
