# frozen_string_literal: true

require 'digest'

RSpec.describe RubyLLM::FileStore::ChatFiles::AttachmentBlobs do
  let(:attachment_class) { Struct.new(:filename, :content, keyword_init: true) }
  let(:blob_class) { Struct.new(:id, :filename, :byte_size, :checksum, keyword_init: true) }

  def attachment(name, content) = attachment_class.new(filename: name, content:)

  def blob(id, name, content)
    blob_class.new(id:, filename: name, byte_size: content.bytesize, checksum: Digest::MD5.base64digest(content))
  end

  it "pairs each attachment with the message's blob of its name, size and checksum, each blob once" do
    first = attachment('a.md', 'same')
    second = attachment('a.md', 'same')
    other = attachment('b.csv', "x,y\n")
    blobs = [blob(1, 'b.csv', "x,y\n"), blob(2, 'a.md', 'same'), blob(3, 'a.md', 'same')]
    pairs = described_class.pair([first, second, other], blobs)
    expect(pairs.map { |att, found| [att.equal?(first) ? :first : att.filename, found.id] })
      .to eq([[:first, 2], ['a.md', 3], ['b.csv', 1]])
  end

  it 'leaves out an attachment whose bytes no blob holds, and a provider upload' do
    changed = attachment('a.md', 'new text')
    upload = attachment('c.pdf', nil).tap { |att| def att.provider_file? = true }
    expect(described_class.pair([changed, upload], [blob(1, 'a.md', 'old text')])).to eq([])
  end

  it 'is no blob for an attachment that is not from Active Storage' do
    expect(described_class.of(attachment('a.md', 'x'))).to be_nil
    expect(described_class.missing_file?(RuntimeError.new)).to be_falsey
  end

  it "computes Active Storage's checksum" do
    expect(described_class.checksum('hello')).to eq(Digest::MD5.base64digest('hello'))
  end
end
