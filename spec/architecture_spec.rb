# frozen_string_literal: true

require 'spec_helper'

# ARCHITECTURE.md is the map of both halves: every module of every crate
# and every folder of lib/ is named in it, so a new one cannot be added
# without saying where it sits.
RSpec.describe 'ARCHITECTURE.md' do
  root = File.expand_path('..', __dir__)
  map = File.read(File.join(root, 'ARCHITECTURE.md'))

  # The top-level modules of a crate: its src/*.rs files and src/*/ folders,
  # but for the crate root and its tests.
  crate_modules = lambda do |src|
    Dir.children(src).filter_map do |entry|
      name = entry.delete_suffix('.rs')
      next if %w[lib main tests].include?(name)
      next unless entry.end_with?('.rs') || File.directory?(File.join(src, entry))

      name
    end.uniq.sort
  end

  # A module is named as `name`, `name.rs` or `name/`, in backquotes.
  named = ->(text, name) { text.match?(%r{`#{Regexp.escape(name)}(?:\.rs|/)?`}) }

  crates = Dir[File.join(root, 'ext/*/src')]

  it 'has the crates and folders it checks' do
    expect(crates.size).to be >= 6
    expect(Dir[File.join(root, 'lib/**/')].size).to be > 10
  end

  crates.each do |src|
    crate = File.basename(File.dirname(src))

    it "names the crate #{crate} and each of its modules" do
      expect(map).to include("`ext/#{crate}`")
      missing = crate_modules.call(src).reject { |name| named.call(map, name) }
      expect(missing).to eq([]), "ARCHITECTURE.md does not name #{missing.join(', ')} of #{crate}"
    end
  end

  it 'names every folder of lib/' do
    # Folders that hold nothing but the namespace's next folder.
    namespaces = %w[lib lib/ruby_llm lib/generators lib/generators/ruby_llm]
    folders = Dir[File.join(root, 'lib/**/')].map { |dir| dir.delete_prefix("#{root}/").chomp('/') } - namespaces
    # A folder is named by its path, or inside its parent's row by its own
    # name (`cgroup/` in the row of lib/ruby_llm/file_store/code_execution/).
    missing = folders.reject do |folder|
      map.include?("`#{folder}/`") || named.call(map, File.basename(folder))
    end
    expect(missing).to eq([]), "ARCHITECTURE.md does not name #{missing.join(', ')}"
  end

  it 'sees a module that is missing (the check can fail)' do
    Dir.mktmpdir do |dir|
      File.write(File.join(dir, 'lib.rs'), '')
      File.write(File.join(dir, 'brand_new.rs'), '')
      Dir.mkdir(File.join(dir, 'another'))
      expect(crate_modules.call(dir)).to eq(%w[another brand_new])
      expect(crate_modules.call(dir).reject { |name| named.call(map, name) }).to eq(%w[another brand_new])
    end
  end
end
