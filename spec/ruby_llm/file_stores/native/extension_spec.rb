# frozen_string_literal: true

RSpec.describe RubyLLM::FileStores::Native, :native do
  it 'loads the compiled extension' do
    expect($LOADED_FEATURES.grep(/file_stores_native\.so\z/)).not_to be_empty
    expect(described_class::SNIFF_BYTES).to eq(8192)
  end

  it 'computes sha256 digests as Digest does' do
    require 'digest'
    ['', 'abc', "\xFF\x00".b * 1000].each do |bytes|
      expect(described_class.sha256_hex(bytes)).to eq(Digest::SHA256.hexdigest(bytes))
    end
  end

  it 'turns a panic in native code into a rescuable error, not fatal' do
    expect { described_class.panic_for_tests }
      .to raise_error(RubyLLM::FileStore::InternalError, /deliberate panic.*please report it/)
    expect(described_class.normalize_path('./still/works')).to eq('still/works')
  end

  it 'maps operating-system errors to the Errno class of SystemCallError' do
    Dir.mktmpdir do |tmp|
      file = File.join(tmp, 'a-file')
      File.write(file, 'x')
      expect { RubyLLM::NativeDir.new(File.join(file, 'below')) }
        .to raise_error(Errno::ENOTDIR, %r{a-file/below})
    end
  end
end
