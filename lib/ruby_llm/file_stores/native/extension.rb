# frozen_string_literal: true

# Loads the compiled extension: a precompiled build for this Ruby's minor
# version first (the layout of platform gems), then the plain build that
# `rake compile` puts in lib/ or that `gem install` puts on the load path.
begin
  ruby_version = RUBY_VERSION[/\A\d+\.\d+/]
  require_relative "#{ruby_version}/file_stores_native"
rescue LoadError
  begin
    require 'ruby_llm/file_stores/native/file_stores_native'
  rescue LoadError => e
    built = Dir[File.join(__dir__, '*', 'file_stores_native.*')].map { |path| File.basename(File.dirname(path)) }
    raise if built.empty?

    # A platform gem without a build for this Ruby: the source gem compiles one.
    raise LoadError, "ruby_llm-file_stores-native holds builds for Ruby #{built.sort.join(', ')}, not " \
                     "#{ruby_version}: gem install ruby_llm-file_stores-native --platform ruby (needs Rust) " \
                     "(#{e.message})"
  end
end
