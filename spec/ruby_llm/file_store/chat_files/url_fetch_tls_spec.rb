# frozen_string_literal: true

# The https side of the careful fetch: it connects to the address it checked,
# not to whatever the name resolves to later, and must still verify the
# server's certificate for the URL's host name and send that name (SNI). A
# CA made here signs the servers' certificates; the process trusts it as a
# machine trusts the public CAs, so a failure can only come from the check.
RSpec.describe RubyLLM::FileStore::ChatFiles::UrlFetch, 'over https' do
  def self.key = @key ||= OpenSSL::PKey::RSA.new(2048)

  # A certificate for +subject+ signed by +issuer+ (self-signed when nil),
  # an authority's when +names+ is nil, else a server's for those DNS names.
  def self.certificate(subject, issuer: nil, names: nil)
    cert = OpenSSL::X509::Certificate.new
    cert.version = 2
    cert.serial = rand(1 << 64)
    cert.subject = OpenSSL::X509::Name.parse("/CN=#{subject}")
    cert.issuer = (issuer || cert).subject
    cert.public_key = key.public_key
    cert.not_before = Time.now - 60
    cert.not_after = Time.now + 3600
    extend_certificate(cert, issuer || cert, names)
    cert.sign(key, OpenSSL::Digest.new('SHA256')) # one key for all: only the names and signers differ
  end

  def self.extend_certificate(cert, issuer, names)
    factory = OpenSSL::X509::ExtensionFactory.new
    factory.subject_certificate = cert
    factory.issuer_certificate = issuer
    extensions = if names
                   [%w[basicConstraints CA:FALSE], %w[keyUsage digitalSignature],
                    ['subjectAltName', names.map { |name| "DNS:#{name}" }.join(',')]]
                 else
                   [%w[basicConstraints CA:TRUE], %w[keyUsage keyCertSign]]
                 end
    extensions.each do |(name, value)|
      cert.add_extension(factory.create_extension(name, value, name != 'subjectAltName'))
    end
  end

  def self.authority = @authority ||= certificate('ruby_llm-file_stores spec CA')

  # A CA of the spec's own, trusted by this process as it trusts the
  # machine's (a fresh key each run, so it vouches for nothing else).
  OpenSSL::SSL::SSLContext::DEFAULT_CERT_STORE.add_cert(authority)

  def serve(names, issuer: self.class.authority)
    cert = self.class.certificate(names.first, issuer:, names:)
    tls = OpenSSL::SSL::SSLContext.new
    tls.cert = cert
    tls.key = self.class.key
    @server = UrlServer.start_tls({ 'a.txt' => [200, 'hello over tls'] }, tls)
  end

  after { @server&.stop }

  def fetch(url)
    # The server's address, whichever of localhost's addresses (::1 first on
    # some machines) the hosts file lists first.
    described_class.new(max_bytes: 1024, timeout: 5, allowed_hosts: ['127.0.0.1']).call(url)
  end

  it "reaches a server whose certificate names the URL's host, sending that name and the Host header" do
    serve(['localhost'])
    expect(fetch(@server.url('a.txt', host: 'localhost'))).to eq('hello over tls'.b)
    expect(@server.server_names).to eq(['localhost'])
    expect(@server.requests).to eq([['/a.txt', "localhost:#{@server.port}"]])
  end

  it 'refuses a certificate made out to another name, though the address was allowed' do
    serve(['files.example.com'])
    expect { fetch(@server.url('a.txt', host: 'localhost')) }
      .to raise_error(described_class::Refused,
                      /\Athe connection failed \(OpenSSL::SSL::SSLError: .*certificate verify failed/)
    expect(@server.requests).to eq([])
  end

  it 'refuses a certificate no trusted authority signed' do
    stranger = self.class.certificate('stranger CA')
    serve(['localhost'], issuer: stranger)
    expect { fetch(@server.url('a.txt', host: 'localhost')) }
      .to raise_error(described_class::Refused, /certificate verify failed/)
    expect(@server.requests).to eq([])
  end
end
