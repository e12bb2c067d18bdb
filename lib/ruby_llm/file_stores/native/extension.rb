# frozen_string_literal: true

# Loads the compiled extension: a precompiled build for this Ruby's minor
# version first (the layout of platform gems), then the plain build that
# `rake compile` puts in lib/ or that `gem install` puts on the load path.
begin
  ruby_version = RUBY_VERSION[/\A\d+\.\d+/]
  require_relative "#{ruby_version}/file_stores_native"
rescue LoadError
  require 'ruby_llm/file_stores/native/file_stores_native'
end
