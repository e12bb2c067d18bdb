# frozen_string_literal: true

require_relative 'guarantee_helpers'
require_relative 'hostile_path_table'

# Guarantee: no path a model (or a document it read) makes up leaves the
# store. Every hostile path goes through every store method and every tool;
# each is refused with a message saying why, or names a file inside the
# store. A canary file and folder beside the store (and a fake HOME, for ~)
# must keep their content, mtime and existence, and no result may contain
# the canary's secret.
RSpec.describe 'Guarantee: hostile paths stay inside the store', :native do
  include_context 'in a temporary folder'

  include HostilePathTable

  before do
    @outside = File.join(@tmp, 'outside')
    @home = File.join(@tmp, 'home')
    @root = File.join(@tmp, 'store')
    FileUtils.mkdir_p([File.join(@outside, 'canary_dir'), @home, @root])
    File.write(File.join(@outside, 'canary.txt'), HostilePathTable::SECRET)
    File.write(File.join(@outside, 'canary_dir', 'inner.txt'), HostilePathTable::SECRET)
    File.write(File.join(@home, 'canary.txt'), HostilePathTable::SECRET)
    File.symlink(@outside, File.join(@root, 'linked'))
    File.symlink(File.join(@outside, 'canary.txt'), File.join(@root, 'link.txt'))
    @before = GuaranteeHelpers.snapshot(@tmp, skip: [@root])
    @saved_home = Dir.home
    ENV['HOME'] = @home # a store that expanded ~ would land here
  end

  after do
    ENV['HOME'] = @saved_home
    expect(GuaranteeHelpers.snapshot(@tmp, skip: [@root])).to eq(@before)
    expect(File.read(File.join(@outside, 'canary.txt'))).to eq(HostilePathTable::SECRET)
    expect(File.symlink?(File.join(@root, 'linked'))).to be(true)
  end

  def check_all(store, paths)
    paths.each do |path|
      every_operation(store, path).each do |label, (kind, value)|
        where = "#{label}(#{path.inspect[0, 80]})"
        expect(kind).not_to eq(:raised), "#{where} raised #{value.inspect}"
        expect(value.to_s).to match(HostilePathTable::CLEAR), "#{where} refused unclearly: #{value}" if kind == :refused
        expect(show(value)).not_to include(HostilePathTable::SECRET), "#{where} showed the canary"
        yield path, label, kind, value if block_given?
      end
    end
  end

  [['a NativeDir', ->(root) { RubyLLM::NativeDir.new(root) }],
   ['a Memory store', ->(_root) { RubyLLM::FileStore::Memory.new }]].each do |label, make|
    context "on #{label}" do
      let(:store) { make.call(@root) }

      it 'refuses every path that could leave the store, in every method and tool, saying why' do
        invalid = HostilePathTable::INVALID +
                  [File.join(@outside, 'canary.txt'), "#{@root}/../outside/canary.txt", nil, 42, ['..']]
        check_all(store, invalid) do |path, op, kind, value|
          next if op.include?('glob') # a glob filters store paths; it names no path of its own
          next if path.nil? && HostilePathTable::FOLDER_OPS.include?(op) # no folder: the whole store

          expect(kind).to eq(:refused), "#{op}(#{path.inspect[0, 80]}) was not refused: #{show(value)[0, 200]}"
        end
      end

      it 'keeps names that only look like escapes inside the store, as files of their own' do
        check_all(store, HostilePathTable::LITERAL)
        # Hidden names (a leading dot) are refused by a folder store.
        kept = HostilePathTable::LITERAL.reject { |path| store.local_root && path.start_with?('.') }
        kept.each do |path|
          expect(store.write(path, path).path).to eq(RubyLLM::FileStore.path(path))
          expect(store.read(path)).to eq(path.b)
          next unless store.local_root

          expect(File.read(File.join(store.local_root, path))).to eq(path), path.inspect
        end
        expect(store.list.size).to eq(kept.size) # é and e + U+0301 are two files, as on disk
      end
    end
  end

  it 'never reads, writes or deletes through a link in the folder or one of its folders' do
    store = RubyLLM::NativeDir.new(@root)
    check_all(store, HostilePathTable::THROUGH_LINKS) do |path, op, kind, value|
      if %w[write write_file].include?(op)
        expect(kind).to eq(:refused), "#{op}(#{path}) wrote through a link: #{value.inspect}"
      end
    end
    expect(store.list.map(&:path)).to all(satisfy { |p| !p.start_with?('linked/') && p != 'link.txt' })
  end
end
