# frozen_string_literal: true

require 'ipaddr'
require 'net/http'
require 'openssl'
require 'resolv'
require 'timeout'
require 'uri'

module RubyLLM
  module FileStores
    module Native
      module Glue
        # Fetches a URL attachment's bytes to keep them in a chat's files, as
        # a careful client: a URL is whatever a user typed, so the fetch is a
        # request from the server that must not reach what the user cannot.
        #
        #   UrlFetch.new(max_bytes: 50 << 20, timeout: 30).call('https://example.com/clip.mp4')  # => bytes
        #
        # - http and https only, also after a redirect;
        # - the host is resolved here, each address checked (no loopback,
        #   private, shared, link-local (the cloud metadata services),
        #   multicast or reserved address, nor an IPv6 address that carries
        #   one), and the connection made to that very address, with the
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
        class UrlFetch
          # A URL that was not fetched; the message says why.
          class Refused < StandardError; end

          MAX_REDIRECTS = 5

          # The addresses never connected to, and what each range is.
          BLOCKED = [
            ['0.0.0.0/8', 'an unspecified address'],
            ['10.0.0.0/8', 'a private address'],
            ['100.64.0.0/10', 'a shared (carrier-grade NAT) address'],
            ['127.0.0.0/8', 'a loopback address'],
            ['169.254.0.0/16', 'a link-local address, where cloud metadata services answer'],
            ['172.16.0.0/12', 'a private address'],
            ['192.0.0.0/24', 'a reserved address'],
            ['192.168.0.0/16', 'a private address'],
            ['198.18.0.0/15', 'a reserved address'],
            ['224.0.0.0/4', 'a multicast address'],
            ['240.0.0.0/4', 'a reserved address'],
            ['::/128', 'an unspecified address'],
            ['::1/128', 'a loopback address'],
            ['fc00::/7', 'a private address'],
            ['fec0::/10', 'a private address'],
            ['fe80::/10', 'a link-local address'],
            ['ff00::/8', 'a multicast address']
          ].map { |range, kind| [IPAddr.new(range), kind].freeze }.freeze

          # IPv6 ranges whose last 32 bits are an IPv4 address a connection
          # reaches (mapped, NAT64, the old compatible form).
          CARRYING_IPV4 = %w[::ffff:0:0/96 64:ff9b::/96 ::/96].map { |range| IPAddr.new(range) }.freeze
          # 6to4: the IPv4 address in bits 16-47.
          SIX_TO_FOUR = IPAddr.new('2002::/16')

          # What +address+ (a String or IPAddr) is when the fetch refuses
          # it ("a loopback address"), or nil.
          def self.blocked(address)
            ip = address.is_a?(IPAddr) ? address : IPAddr.new(address.to_s)
            kind = BLOCKED.find { |range, _| range.family == ip.family && range.include?(ip) }&.last
            return kind if kind || !ip.ipv6?

            carried = carried_ipv4(ip)
            carried && blocked(carried)
          end

          # The IPv4 address an IPv6 address carries, or nil.
          def self.carried_ipv4(ip)
            bits = if CARRYING_IPV4.any? { |range| range.include?(ip) } then ip.to_i & 0xffff_ffff
                   elsif SIX_TO_FOUR.include?(ip) then (ip.to_i >> 80) & 0xffff_ffff
                   end
            bits && IPAddr.new(bits, Socket::AF_INET)
          end

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
          rescue Timeout::Error, Net::OpenTimeout, Net::ReadTimeout, Net::WriteTimeout
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
              request['User-Agent'] = "ruby_llm-file_stores-native/#{Native::VERSION}"
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
            chosen = addresses.find { |address| named || allowed_address?(address) || UrlFetch.blocked(address).nil? }
            return chosen if chosen

            first = addresses.first
            raise Refused, "#{host == first ? host : "#{host} (#{first})"} is #{UrlFetch.blocked(first)}"
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
end
