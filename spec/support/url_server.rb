# frozen_string_literal: true

require 'openssl'
require 'socket'

# A small HTTP server on 127.0.0.1 for the specs of URL attachments: each
# path answers as its route says, and every request is recorded (path and
# Host header). Routes:
#
#   'ruby.png' => [200, bytes]                 with a Content-Length
#   'big.png'  => [200, bytes, chunked: true]  without one, in chunks
#   'gone.png' => [404, 'no']
#   'hop.png'  => [302, 'http://169.254.169.254/x.png']   (the Location)
#   'slow.png' => :hold                        reads the request and never answers
#
#   server = UrlServer.start('ruby.png' => [200, png])
#   server.url('ruby.png')  # => "http://127.0.0.1:PORT/ruby.png"
#   server.requests         # => [["/ruby.png", "127.0.0.1:PORT"]]
#
# +start_tls+ takes an OpenSSL::SSL::SSLContext holding the certificate too:
# the server speaks https, and +server_names+ records each handshake's SNI
# name.
class UrlServer
  attr_reader :requests, :server_names

  def self.start(routes) = new(routes).tap(&:start)

  def self.start_tls(routes, context) = new(routes, context).tap(&:start)

  def initialize(routes, tls = nil)
    @routes = routes
    @tls = tls
    @requests = []
    @server_names = []
    @held = Queue.new
    @lock = Mutex.new
  end

  def start
    @server = TCPServer.new('127.0.0.1', 0)
    @thread = Thread.new { loop { Thread.new(@server.accept) { |client| serve(client) } } }
    self
  end

  def port = @server.addr[1]

  def url(path, host: '127.0.0.1') = "#{@tls ? 'https' : 'http'}://#{host}:#{port}/#{path}"

  def stop
    @thread&.kill
    @server&.close
    @held.close
  end

  private

  def serve(client)
    client = handshake(client) if @tls
    path, host = read_request(client)
    @lock.synchronize { @requests << [path, host] }
    route = @routes[path.delete_prefix('/')]
    return @held.pop if route == :hold # until stop

    status, body, options = route || [404, 'no such route']
    write(client, status, body.to_s.b, **(options || {}))
  rescue IOError, SystemCallError, OpenSSL::SSL::SSLError
    nil
  ensure
    client.close unless route == :hold && !@held.closed?
  end

  # The TLS side of +socket+, its SNI name recorded. A client that refuses
  # the certificate ends the handshake, which raises here.
  def handshake(socket)
    @tls.servername_cb ||= lambda do |(ssl, name)|
      @lock.synchronize { @server_names << name }
      ssl.context
    end
    OpenSSL::SSL::SSLSocket.new(socket, @tls).tap do |ssl|
      ssl.sync_close = true
      ssl.accept
    end
  end

  def read_request(client)
    path = client.gets.to_s.split[1].to_s
    host = nil
    while (line = client.gets) && line != "\r\n"
      host = Regexp.last_match(1) if line =~ /\Ahost:\s*(\S+)/i
    end
    [path, host]
  end

  REASONS = { 200 => 'OK', 301 => 'Moved Permanently', 302 => 'Found', 404 => 'Not Found' }.freeze

  def write(client, status, body, chunked: false)
    head = "HTTP/1.1 #{status} #{REASONS.fetch(status, 'Other')}\r\nConnection: close\r\n"
    if (300..399).cover?(status)
      head += "Location: #{body}\r\n"
      body = ''
    end
    if chunked
      client.write("#{head}Transfer-Encoding: chunked\r\n\r\n")
      body.bytes.each_slice(1024) { |slice| client.write("#{slice.size.to_s(16)}\r\n#{slice.pack('C*')}\r\n") }
      client.write("0\r\n\r\n")
    else
      client.write("#{head}Content-Length: #{body.bytesize}\r\n\r\n#{body}")
    end
  end
end
