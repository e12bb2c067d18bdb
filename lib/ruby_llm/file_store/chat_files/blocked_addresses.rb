# frozen_string_literal: true

require 'ipaddr'
require 'socket'

module RubyLLM
  class FileStore
    class ChatFiles
      # The addresses UrlFetch never connects to: loopback, private, shared
      # (carrier-grade NAT), link-local (where cloud metadata services
      # answer: 169.254.169.254, and fd00:ec2::254 among the private IPv6
      # ones), multicast, reserved and unspecified ones, and an IPv6
      # address that carries such an IPv4 address (mapped, NAT64, 6to4, the
      # old compatible form), since connecting to it reaches that address.
      #
      #   BlockedAddresses.kind('127.0.0.1')          # => "a loopback address"
      #   BlockedAddresses.kind('::ffff:10.0.0.1')    # => "a private address"
      #   BlockedAddresses.kind('93.184.215.14')      # => nil
      module BlockedAddresses # :nodoc:
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
        def self.kind(address)
          ip = address.is_a?(IPAddr) ? address : IPAddr.new(address.to_s)
          kind = BLOCKED.find { |range, _| range.family == ip.family && range.include?(ip) }&.last
          return kind if kind || !ip.ipv6?

          carried = carried_ipv4(ip)
          carried && kind(carried)
        end

        # The IPv4 address an IPv6 address carries, or nil.
        def self.carried_ipv4(ip)
          bits = if CARRYING_IPV4.any? { |range| range.include?(ip) } then ip.to_i & 0xffff_ffff
                 elsif SIX_TO_FOUR.include?(ip) then (ip.to_i >> 80) & 0xffff_ffff
                 end
          bits && IPAddr.new(bits, Socket::AF_INET)
        end
      end
    end
  end
end
