# frozen_string_literal: true

# The careful fetch of URL attachments on its own (the chat's side is in
# spec/integration/tool_files_and_urls_spec.rb). Every server here is on
# 127.0.0.1; every other address is refused before any connection.
RSpec.describe RubyLLM::FileStore::ChatFiles::UrlFetch do
  blocked = RubyLLM::FileStore::ChatFiles::BlockedAddresses

  around do |example|
    @server = UrlServer.start('a.txt' => [200, 'hello'], 'to-v6.txt' => [302, 'http://[::ffff:7f00:1]/a.txt'])
    example.run
  ensure
    @server&.stop
  end

  def fetch(url, allowed_hosts: [], max_bytes: 1024, timeout: 5)
    described_class.new(max_bytes:, timeout:, allowed_hosts:).call(url)
  end

  {
    '127.0.0.1' => 'a loopback address', '127.255.0.9' => 'a loopback address', '::1' => 'a loopback address',
    '10.1.2.3' => 'a private address', '172.31.0.1' => 'a private address', '192.168.1.1' => 'a private address',
    'fd00:ec2::254' => 'a private address', '100.100.100.200' => 'a shared (carrier-grade NAT) address',
    '169.254.169.254' => 'a link-local address, where cloud metadata services answer',
    'fe80::1' => 'a link-local address', '0.0.0.0' => 'an unspecified address', '::' => 'an unspecified address',
    '224.0.0.1' => 'a multicast address', '255.255.255.255' => 'a reserved address',
    '::ffff:127.0.0.1' => 'a loopback address', '::ffff:169.254.169.254' => blocked.kind('169.254.169.254'),
    '64:ff9b::a00:1' => 'a private address', '2002:7f00:1::' => 'a loopback address',
    '93.184.215.14' => nil, '2606:4700::1111' => nil, '::ffff:93.184.215.14' => nil
  }.each do |address, kind|
    it "takes #{address} for #{kind || 'an address it may reach'}" do
      expect(blocked.kind(address)).to eq(kind)
    end
  end

  it 'refuses a loopback address, IPv4, IPv6 or IPv4 in IPv6, without connecting' do
    [@server.url('a.txt'), "http://[::1]:#{@server.port}/a.txt", "http://[::ffff:127.0.0.1]:#{@server.port}/a.txt"]
      .each do |url|
        expect { fetch(url) }.to raise_error(described_class::Refused, /is a loopback address\z/)
      end
    expect(@server.requests).to eq([])
  end

  it 'reaches an allowed address or range, and checks a redirect again' do
    expect(fetch(@server.url('a.txt'), allowed_hosts: ['127.0.0.0/8'])).to eq('hello'.b)
    expect { fetch(@server.url('to-v6.txt'), allowed_hosts: ['127.0.0.1']) }
      .to raise_error(described_class::Refused, '::ffff:7f00:1 is a loopback address')
    expect(@server.requests.map(&:first)).to eq(%w[/a.txt /to-v6.txt])
  end

  it 'refuses other schemes and what is not a URL' do
    expect { fetch('file:///etc/passwd') }.to raise_error(described_class::Refused, /only http and https/)
    expect { fetch('http://') }.to raise_error(described_class::Refused, 'it names no host')
    expect { fetch('http://exa mple.com/') }.to raise_error(described_class::Refused, 'it is not a valid URL')
  end
end

RSpec.describe RubyLLM::FileStores::Native::UrlSettings do
  let(:config) { RubyLLM::FileStores::Native::Configuration.new }

  it 'has bounds by default and refuses settings that are not bounds' do
    expect([config.attachment_url_max_bytes, config.attachment_url_timeout, config.attachment_url_allowed_hosts])
      .to eq([50 * 1024 * 1024, 30, []])
    expect { config.attachment_url_max_bytes = 0 }.to raise_error(ArgumentError, /positive Integer/)
    expect { config.attachment_url_timeout = Float::INFINITY }.to raise_error(ArgumentError, /positive number/)
    expect { config.attachment_url_allowed_hosts = [nil] }.to raise_error(ArgumentError, /host names/)
    config.attachment_url_allowed_hosts = 'wiki.intranet'
    expect(config.attachment_url_allowed_hosts).to eq(['wiki.intranet'])
  end
end
