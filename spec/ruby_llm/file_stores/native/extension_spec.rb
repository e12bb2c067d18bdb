# frozen_string_literal: true

require 'fileutils'

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
    Prerequisites.test_hooks(self)
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

RSpec.describe 'lib/ruby_llm/file_stores/native/extension.rb' do
  it 'names the Rubies a platform gem holds builds for when it holds none for this one' do
    Dir.mktmpdir do |tmp|
      native = File.join(tmp, 'ruby_llm/file_stores/native')
      FileUtils.mkdir_p(File.join(native, '9.8'))
      FileUtils.cp(File.expand_path('../../../../lib/ruby_llm/file_stores/native/extension.rb', __dir__), native)
      File.write(File.join(native, '9.8/file_stores_native.so'), '')
      script = "begin; require #{File.join(native, 'extension').inspect}; rescue LoadError => e; print e.message; end"
      out = IO.popen([RbConfig.ruby, '--disable-gems', '-e', script], &:read)
      expect(out).to include("holds builds for Ruby 9.8, not #{RUBY_VERSION[/\A\d+\.\d+/]}")
      expect(out).to include('--platform ruby')
    end
  end
end
