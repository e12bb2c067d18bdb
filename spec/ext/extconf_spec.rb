# frozen_string_literal: true

require 'fileutils'
require 'open3'
require 'rbconfig'

# The plain mkmf path of extconf.rb (rb_sys is not installed) for this
# machine's RbConfig and for a macOS one, so the macOS names are checked
# without a Mac: cargo's library is copied to the name Ruby requires.
RSpec.describe 'ext/file_stores_native/extconf.rb' do
  extconf = File.expand_path('../../ext/file_stores_native/extconf.rb', __dir__)

  def makefile_for(extconf, config)
    Dir.mktmpdir do |tmp|
      # A stand-in cargo on the PATH, and an rb_sys/mkmf that is not there
      # even where the rb_sys gem is installed.
      File.write(File.join(tmp, 'cargo'), "#!/bin/sh\n")
      File.chmod(0o755, File.join(tmp, 'cargo'))
      FileUtils.mkdir_p(File.join(tmp, 'hide/rb_sys'))
      File.write(File.join(tmp, 'hide/rb_sys/mkmf.rb'), "raise LoadError, 'no rb_sys here'\n")
      script = <<~RUBY
        require 'rbconfig'
        config = #{config.inspect}
        RbConfig::CONFIG.merge!(config)
        RbConfig::MAKEFILE_CONFIG.merge!(config)
        load #{extconf.inspect}
      RUBY
      env = { 'PATH' => "#{tmp}:#{ENV.fetch('PATH')}" }
      out, status = Open3.capture2e(env, RbConfig.ruby, '-I', File.join(tmp, 'hide'), '-e', script, chdir: tmp)
      raise "extconf.rb failed: #{out}" unless status.success?

      File.read(File.join(tmp, 'Makefile'))
    end
  end

  it 'copies cargo\'s libfile_stores_native.dylib to file_stores_native.bundle on macOS' do
    makefile = makefile_for(extconf, 'host_os' => 'darwin23', 'DLEXT' => 'bundle', 'SOEXT' => 'dylib')
    expect(makefile).to match(%r{^LIB = .*/release/libfile_stores_native\.dylib$})
    expect(makefile).to match(/^DLIB = file_stores_native\.bundle$/)
  end

  it 'copies cargo\'s libfile_stores_native.so to file_stores_native.so on Linux' do
    makefile = makefile_for(extconf, 'host_os' => 'linux-gnu', 'DLEXT' => 'so', 'SOEXT' => 'so')
    expect(makefile).to match(%r{^LIB = .*/release/libfile_stores_native\.so$})
    expect(makefile).to match(/^DLIB = file_stores_native\.so$/)
    expect(makefile).to match(%r{^INSTALL_DIR = .*/ruby_llm/file_stores/native$})
  end
end
