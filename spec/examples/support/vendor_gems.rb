# frozen_string_literal: true

require 'fileutils'

# Path gems for Bundler made of the folders a ruby_llm copy puts on the load
# path (RubyLLMSource.folders: ruby_llm's lib, then its gems' libs and any
# stand-ins), so the example app's Gemfile can take ruby_llm from
# ../shared/vendor. Each gem is a folder outside the repository holding a
# gemspec and a link to the folder as its lib; no vendor code is copied.
# ruby_llm's gemspec depends on the others and on the gems Debian installs
# (Faraday, Zeitwerk, Marcel, and on Debian 13 Faraday 2's parts), and
# declares nothing Debian lacks: on Debian 12 the copy's stand-ins serve for
# faraday-retry and faraday-multipart.
module VendorGems
  INSTALLED = %w[faraday zeitwerk marcel].freeze
  # What ruby_llm's own gemspec asks for beyond those, where it is installed.
  WHERE_INSTALLED = %w[base64 faraday-multipart faraday-net_http faraday-retry].freeze

  module_function

  # Makes the gems in +dir+ from +folders+ (the first is ruby_llm's lib);
  # returns +dir+, for the app's RUBY_LLM_GEMS.
  def make(folders, dir)
    ruby_llm, *others = folders
    FileUtils.rm_rf(dir)
    names = others.each_with_index.map do |folder, index|
      "ruby_llm-load-path-#{index}".tap { |name| write_gem(dir, name, folder, version: '0.0.1') }
    end
    write_gem(dir, 'ruby_llm', ruby_llm, version: ruby_llm_version(ruby_llm),
                                         dependencies: names + INSTALLED + installed(WHERE_INSTALLED))
    dir
  end

  def write_gem(dir, name, lib, version:, dependencies: [])
    gem_dir = File.join(dir, name)
    FileUtils.mkdir_p(gem_dir)
    File.symlink(File.expand_path(lib), File.join(gem_dir, 'lib'))
    File.write(File.join(gem_dir, "#{name}.gemspec"), <<~RUBY)
      Gem::Specification.new do |spec|
        spec.name = #{name.dump}
        spec.version = #{version.dump}
        spec.summary = 'A load path folder of a ruby_llm copy, for the example app'
        spec.authors = ['ruby_llm-file_stores-native specs']
        spec.files = []
        spec.require_paths = ['lib']
        #{dependencies.map { |gem| "spec.add_dependency #{gem.dump}" }.join("\n  ")}
      end
    RUBY
  end

  def installed(names) = names.reject { |name| Gem::Specification.find_all_by_name(name).empty? }

  # The version ruby_llm's lib declares (lib/ruby_llm/version.rb).
  def ruby_llm_version(lib)
    File.read(File.join(lib, 'ruby_llm/version.rb'))[/VERSION\s*=\s*['"]([^'"]+)/, 1] || '0.0.0'
  end
end
