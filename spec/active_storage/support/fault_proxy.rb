# frozen_string_literal: true

require 'socket'

# A small HTTP proxy on 127.0.0.1 in front of the local S3 server, for the
# specs of an S3 that misbehaves: each request, as its method matches, is
# passed on, answered 500 (S3's InternalError), reset (the connection closed
# with a TCP RST), or passed on after a delay. One request per connection
# (it answers with Connection: close), so every request meets the fault.
#
#   proxy = FaultProxy.start(ActiveStorageSpecApp::S3_ENDPOINT)
#   proxy.fault(:error, methods: %w[PUT])    # or :reset, :delay (seconds:), :pass
#   proxy.route(ActiveStorage::Blob.service) { ... } # the service's requests go through it
#   proxy.stop
class FaultProxy
  S3_ERROR = '<?xml version="1.0" encoding="UTF-8"?><Error><Code>InternalError</Code>' \
             '<Message>We encountered an internal error. Please try again.</Message></Error>'

  attr_reader :requests

  def self.start(upstream) = new(upstream).tap(&:start)

  def initialize(upstream)
    host, port = upstream.delete_prefix('http://').split(':')
    @upstream = [host, Integer(port)]
    raise ArgumentError, "the upstream must be on 127.0.0.1, not #{host}" unless host == '127.0.0.1'

    @fault = { action: :pass, methods: nil, seconds: 0 }
    @requests = []
    @lock = Mutex.new
  end

  def start
    @server = TCPServer.new('127.0.0.1', 0)
    @thread = Thread.new do
      loop do
        client = @server.accept
        Thread.new(client) { |socket| serve(socket) }
      end
    rescue IOError, Errno::EBADF
      nil # stopped
    end
    self
  end

  def url = "http://127.0.0.1:#{@server.addr[1]}"

  def stop
    @server&.close
    @thread&.join(5)
  end

  # What the next requests meet: +action+ :pass, :error (500), :reset or
  # :delay (+seconds+ late), for the methods named (nil: every method).
  def fault(action, methods: nil, seconds: 0)
    @lock.synchronize { @fault = { action:, methods:, seconds: } }
  end

  # [method, path] of every request seen, in order.
  def seen = @lock.synchronize { @requests.dup }

  # Runs the block with +service+ (Active Storage's S3 service) sending
  # its requests here: its bucket, for the block, is the same bucket
  # through a client whose endpoint is this proxy.
  def route(service)
    config = ActiveStorageSpecApp.service_configuration
    client = Aws::S3::Client.new(endpoint: url, force_path_style: true, region: config['region'],
                                 access_key_id: config['access_key_id'],
                                 secret_access_key: config['secret_access_key'])
    bucket = Aws::S3::Resource.new(client:).bucket(service.bucket.name)
    service.define_singleton_method(:bucket) { bucket }
    yield
  ensure
    service.singleton_class.send(:remove_method, :bucket) if service.singleton_methods.include?(:bucket)
  end

  private

  def serve(client)
    head = read_head(client)
    return client.close unless head

    method, path = head.lines.first.split
    fault = @lock.synchronize do
      @requests << [method, path]
      @fault
    end
    action = fault[:methods].nil? || fault[:methods].include?(method) ? fault[:action] : :pass
    case action
    when :error then answer_error(client, head)
    when :reset then reset(client)
    else
      sleep(fault[:seconds]) if action == :delay
      forward(client, head)
    end
  rescue IOError, SystemCallError
    nil # the client went away
  ensure
    client.close unless client.closed?
  end

  def read_head(socket)
    head = +''
    until head.end_with?("\r\n\r\n")
      byte = socket.read(1)
      return nil if byte.nil?

      head << byte
    end
    head
  end

  def header(head, name)
    head[/^#{name}:\s*(.*?)\r$/i, 1]
  end

  def read_body(client, head)
    client.write("HTTP/1.1 100 Continue\r\n\r\n") if header(head, 'Expect')&.casecmp?('100-continue')
    length = header(head, 'Content-Length').to_i
    length.positive? ? client.read(length) : ''
  end

  def answer_error(client, head)
    # Without reading a body the client was to hold back for 100 Continue.
    read_body(client, head) unless header(head, 'Expect')
    client.write("HTTP/1.1 500 Internal Server Error\r\nContent-Type: application/xml\r\n" \
                 "Content-Length: #{S3_ERROR.bytesize}\r\nConnection: close\r\n\r\n#{S3_ERROR}")
  end

  def reset(client)
    client.setsockopt(Socket::SOL_SOCKET, Socket::SO_LINGER, [1, 0].pack('ii'))
    client.close
  end

  # Passes the request on, one per connection, and the answer back with
  # Connection: close.
  def forward(client, head)
    body = read_body(client, head)
    upstream = TCPSocket.new(*@upstream)
    request = head.gsub(/^(Expect|Connection):.*\r\n/i, '').sub(/\r\n\r\n\z/, "\r\nConnection: close\r\n\r\n")
    upstream.write(request, body)
    answer = read_head(upstream) || raise(IOError, 'the upstream closed')
    client.write(answer.gsub(/^Connection:.*\r\n/i, '').sub(/\r\n\r\n\z/, "\r\nConnection: close\r\n\r\n"))
    IO.copy_stream(upstream, client)
  ensure
    upstream&.close
  end
end

# Each example on the S3 service behind a FaultProxy (+@proxy+), the
# store's requests routed through it; on another service, skipped.
RSpec.shared_context 'S3 behind a fault proxy' do
  before { skip 'on the S3 service only' unless ActiveStorageSpecApp.s3? }

  around do |example|
    next example.run unless ActiveStorageSpecApp.s3?

    @proxy = FaultProxy.start(ActiveStorageSpecApp::S3_ENDPOINT)
    @proxy.route(ActiveStorage::Blob.service) { example.run }
  ensure
    @proxy&.stop
  end
end
