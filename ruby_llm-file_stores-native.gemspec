# frozen_string_literal: true

require_relative 'lib/ruby_llm/file_stores/native/version'

Gem::Specification.new do |spec|
  spec.name = 'ruby_llm-file_stores-native'
  spec.version = RubyLLM::FileStores::Native::VERSION
  spec.authors = ['ruby_llm-file_stores-native contributors']
  spec.summary = 'File stores for RubyLLM chats and agents, with a Rust core'
  spec.description = 'Gives a RubyLLM chat or agent its own files: list, search, read and edit them ' \
                     'through tools, in memory, in a folder (a fast native Directory store) or in Active Storage.'
  spec.license = 'MIT'
  spec.required_ruby_version = '>= 3.1'
  spec.metadata['rubygems_mfa_required'] = 'true'

  spec.files = Dir['lib/**/*.rb', 'sig/**/*.rbs', 'ext/**/*.{rs,rb,toml}', 'ext/file_stores_pdf/data/*', 'Cargo.toml',
                   'Cargo.lock', 'README.md', 'docs/*.md', 'CHANGELOG.md',
                   'CONTRIBUTING.md', 'LICENSE'].reject { |f| f.include?('/target/') }
  spec.require_paths = ['lib']
  spec.extensions = ['ext/file_stores_native/extconf.rb']
end
