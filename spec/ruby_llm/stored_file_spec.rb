# frozen_string_literal: true

RSpec.describe RubyLLM::StoredFile do
  def file(size) = described_class.new(path: 'reports/q3.pdf', byte_size: size, content_type: 'application/pdf')

  it 'has path, filename, byte_size, content_type, digest and updated_at' do
    at = Time.now
    f = described_class.new(path: 'reports/q3.pdf', byte_size: 812, content_type: 'application/pdf',
                            digest: 'ab' * 32, updated_at: at)
    expect(f).to have_attributes(path: 'reports/q3.pdf', filename: 'q3.pdf', byte_size: 812,
                                 content_type: 'application/pdf', digest: 'ab' * 32, updated_at: at)
    expect(f).to be_frozen
  end

  it 'gives human sizes' do
    expect([0, 1, 812, 1024, 48 * 1024, 2_200_000, 3 * (1024**3)].map { |n| file(n).human_size })
      .to eq(['0 bytes', '1 byte', '812 bytes', '1 KB', '48 KB', '2.1 MB', '3 GB'])
  end

  it 'inspects as the guide shows' do
    f = described_class.new(path: 'brief.md', byte_size: 812, content_type: 'text/markdown')
    expect(f.inspect).to eq('#<RubyLLM::StoredFile path: "brief.md", byte_size: 812, content_type: "text/markdown">')
  end

  it 'is a value' do
    expect(file(1)).to eq(file(1))
    expect(file(1)).not_to eq(file(2))
    expect([file(1), file(1)].uniq.size).to eq(1)
  end
end
