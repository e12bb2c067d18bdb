# frozen_string_literal: true

# The precompiled platform gem, which installs with no Rust: the extension
# for each Ruby minor it holds, at lib/ruby_llm/file_stores/native/<3.x>/,
# where extension.rb looks first (the layout rake-compiler's native gems use).
#
#   rake native:ext   build for the Ruby running rake into pkg/native/<3.x>/
#                     (run once per Ruby, e.g. in the Debian 13 root for 3.3)
#   rake native:gem   package every pkg/native/<3.x>/ into
#                     pkg/ruby_llm-file_stores-native-<version>-x86_64-linux.gem
require 'fileutils'
require 'rbconfig'
require 'tmpdir'

# What the native:ext and native:gem tasks share.
module NativeGem
  ROOT = File.expand_path('..', __dir__)
  STAGE = File.join(ROOT, 'pkg/native')
  NAME = 'file_stores_native'
  PLATFORM = 'x86_64-linux'
  # Each stripped library stays under this; RELEASING.md lists what makes it large.
  MAX_BYTES = 6 * 1024 * 1024

  module_function

  def ruby_minor = RUBY_VERSION[/\A\d+\.\d+/]

  # Built libraries by Ruby minor, oldest first.
  def built
    found = Dir[File.join(STAGE, '*', "#{NAME}.so")].to_h { |path| [File.basename(File.dirname(path)), path] }
    found.sort_by { |minor, _| Gem::Version.new(minor) }.to_h
  end

  def check_size(path)
    size = File.size(path)
    return if size <= MAX_BYTES

    abort "#{path} is #{size} bytes, over the #{MAX_BYTES} a platform gem's library may weigh: see RELEASING.md"
  end

  # The gemspec with no extensions and no Rust sources, holding +built+,
  # for the Rubies from the oldest to the newest minor it holds.
  def spec(built)
    spec = Gem::Specification.load(File.join(ROOT, 'ruby_llm-file_stores-native.gemspec'))
    spec.platform = Gem::Platform.new(PLATFORM)
    spec.extensions = []
    spec.files = spec.files.reject { |f| f.start_with?('ext/') || f.start_with?('Cargo.') }
    spec.files += built.keys.map { |minor| "lib/ruby_llm/file_stores/native/#{minor}/#{NAME}.so" }
    newest = Gem::Version.new(built.keys.last).segments
    spec.required_ruby_version = [">= #{built.keys.first}", "< #{newest[0]}.#{newest[1] + 1}"]
    spec
  end

  def copy(from, to)
    FileUtils.mkdir_p(File.dirname(to))
    FileUtils.cp(from, to)
  end

  # Builds +spec+'s gem, with the libraries +built+, into pkg/.
  def package(spec, built)
    Dir.mktmpdir do |stage|
      (spec.files - spec.files.grep(/\.so\z/)).each { |file| copy(File.join(ROOT, file), File.join(stage, file)) }
      built.each { |minor, path| copy(path, File.join(stage, "lib/ruby_llm/file_stores/native/#{minor}/#{NAME}.so")) }
      gem = Dir.chdir(stage) { Gem::Package.build(spec) }
      FileUtils.mkdir_p(File.join(ROOT, 'pkg'))
      FileUtils.mv(File.join(stage, gem), File.join(ROOT, 'pkg', gem))
      puts "native:gem: pkg/#{gem} (Ruby #{spec.required_ruby_version}, builds for #{built.keys.join(', ')})"
    end
  end
end

namespace :native do
  desc 'Build the extension for the Ruby running rake into pkg/native/<major.minor>/ (for native:gem)'
  task :ext do
    # NATIVE_TARGET_DIR keeps another toolchain's build (the Debian 13 root's) apart.
    target_dir = ENV.fetch('NATIVE_TARGET_DIR', File.join(NativeGem::ROOT, 'target'))
    sh 'cargo', 'build', '--release', '--locked', '-p', NativeGem::NAME, '--target-dir', target_dir,
       chdir: NativeGem::ROOT
    built = File.join(target_dir, 'release', "lib#{NativeGem::NAME}.so")
    dest = File.join(NativeGem::STAGE, NativeGem.ruby_minor, "#{NativeGem::NAME}.so")
    FileUtils.mkdir_p(File.dirname(dest))
    FileUtils.cp(built, dest)
    NativeGem.check_size(dest)
    puts "native:ext: #{dest} (#{File.size(dest)} bytes, Ruby #{RUBY_VERSION})"
  end

  desc "Package pkg/native/*/ into pkg/ruby_llm-file_stores-native-<version>-#{NativeGem::PLATFORM}.gem"
  task :gem do
    require 'rubygems/package'
    built = NativeGem.built
    abort 'native:gem: nothing in pkg/native/: run rake native:ext with each Ruby first' if built.empty?
    built.each_value { |path| NativeGem.check_size(path) }
    spec = NativeGem.spec(built)
    NativeGem.package(spec, built)
  end
end
