# frozen_string_literal: true

require 'fileutils'
require 'open3'
require 'rbconfig'

# extconf.rb's Makefile for this machine's RbConfig and for a macOS one, so
# the macOS names are checked without a Mac: cargo's library becomes the
# file Ruby requires. The plain mkmf path everywhere; the rb_sys path where
# the rb_sys gem is (the Debian 13 root: Debian 12 has no package for it).
RSpec.describe 'ext/file_stores_native/extconf.rb' do
  extconf = File.expand_path('../../ext/file_stores_native/extconf.rb', __dir__)

  def makefile_for(extconf, config, rb_sys: false)
    Dir.mktmpdir do |tmp|
      # A stand-in cargo on the PATH, and unless asked for, an rb_sys/mkmf
      # that is not there even where the rb_sys gem is installed.
      File.write(File.join(tmp, 'cargo'), "#!/bin/sh\n")
      File.chmod(0o755, File.join(tmp, 'cargo'))
      FileUtils.mkdir_p(File.join(tmp, 'hide/rb_sys'))
      File.write(File.join(tmp, 'hide/rb_sys/mkmf.rb'), "raise LoadError, 'no rb_sys here'\n") unless rb_sys
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
    makefile = makefile_for(extconf, { 'host_os' => 'darwin23', 'DLEXT' => 'bundle', 'SOEXT' => 'dylib' })
    expect(makefile).to match(%r{^LIB = .*/release/libfile_stores_native\.dylib$})
    expect(makefile).to match(/^DLIB = file_stores_native\.bundle$/)
  end

  it 'has rb_sys build file_stores_native.bundle from libfile_stores_native.dylib on macOS' do
    rb_sys = Gem::Specification.any? { |gem| gem.name == 'rb_sys' }
    unless rb_sys || ENV['DEBIAN13']
      skip 'the rb_sys gem is not installed (bin/test-debian13 runs this in the Debian 13 root)'
    end
    makefile = makefile_for(extconf, { 'host_os' => 'darwin23', 'DLEXT' => 'bundle', 'SOEXT' => 'dylib' }, rb_sys: true)
    expect(makefile).to match(/^TARGET_NAME = file_stores_native$/)
    expect(makefile).to match(/^DLLIB = \$\(TARGET\)\.bundle$/)
    expect(makefile).to match(/^SOEXT \?= dylib$/)
  end

  it 'copies cargo\'s libfile_stores_native.so to file_stores_native.so on Linux' do
    makefile = makefile_for(extconf, { 'host_os' => 'linux-gnu', 'DLEXT' => 'so', 'SOEXT' => 'so' })
    expect(makefile).to match(%r{^LIB = .*/release/libfile_stores_native\.so$})
    expect(makefile).to match(/^DLIB = file_stores_native\.so$/)
    expect(makefile).to match(%r{^INSTALL_DIR = .*/ruby_llm/file_stores/native$})
  end
end
