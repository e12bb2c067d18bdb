# frozen_string_literal: true

require_relative 'guarantee_helpers'

# Guarantee: no folder tree overflows the stack. A store path nests at most
# MAX_PATH_DEPTH (64) names, and every walk (list, list_files, search_files,
# total_size, delete_folder) is iterative and stops at that depth, naming
# the deeper folders it left out, so a tree thousands of folders deep made
# outside the tools (by code or another process) is listed, searched and
# deleted down to the cap on a Ruby thread's small stack.
RSpec.describe 'Guarantee: deep folder trees never overflow the stack', :native do
  it 'refuses a path deeper than 64 names, with a message saying so, in FileStore.path and the tools' do
    deepest = (['a'] * 64).join('/')
    expect(RubyLLM::FileStore.path(deepest)).to eq(deepest)
    expect { RubyLLM::FileStore.path("#{deepest}/x.txt") }
      .to raise_error(ArgumentError, /nests more than 64 names/)
    expect { RubyLLM::FileStore.folder("#{deepest}/b") }.to raise_error(ArgumentError, /more than 64 names/)
    Dir.mktmpdir do |dir|
      store = RubyLLM::NativeDir.new(dir)
      tools = RubyLLM::FileStore::Tools.for(store).to_h { |t| [t.name, t] }
      nearly_two_thousand = "#{(['a'] * 1990).join('/')}/x.txt" # within 4000 bytes
      expect(tools['write_file'].call({ 'path' => nearly_two_thousand, 'content' => 'x' }))
        .to match(error: end_with('is not a valid file path: it nests more than 64 names; ' \
                                  'a store path holds at most 64 (a file at most 63 folders deep)'))
      expect(RubyLLM::FileStores::Native::MAX_PATH_DEPTH).to eq(64)
    end
  end

  it 'lists, searches, sizes and deletes a tree 3000 folders deep on a Ruby thread, naming what it left out' do
    outcome = GuaranteeHelpers.run_script('deep_tree.rb', 3000)
    expect(outcome[:status]).to be_success, "the walk failed:\n#{outcome[:output][-3000..] || outcome[:output]}"
    expect(outcome[:list]).to eq(['d/near.txt'])
    expect(outcome[:listing_deep]).to eq([64])
    expect(outcome[:list_files]).to start_with("d/near.txt (text/plain, 20 bytes)\n")
      .and include('[Left out 1 folder deeper than a store path reaches (64 names): d/d/d/')
    expect(outcome[:search_files]).to start_with("d/near.txt:1:needle near the top\n")
      .and include('Skipped 1 folder deeper than a store path reaches: d/d/d/')
    expect(outcome[:total_size]).to eq(20)
    expect(outcome[:capped_write]).to eq('e.txt')
    expect(outcome[:store_delete_folder]).to eq(['d/near.txt'])
    expect(outcome[:after]).to eq(['e.txt'])
    expect(outcome[:deep_file_kept]).to be(true) # beyond any store path: left alone
  end
end
