# frozen_string_literal: true

require_relative 'guarantee_helpers'

# Guarantee: a panic in native code never ends the process. Every native
# entry point runs its work through the binding's panic-catching helpers,
# so a panic is a rescuable RubyLLM::FileStore::InternalError; and globs
# (4096 bytes) and search patterns (16 KiB) are capped before they are
# compiled, so the tools refuse a huge one at once with a message saying
# what to do. Runs in a child Ruby: before the fix, a glob of 100 KB made
# globset panic, which reached Ruby as `fatal` and ended the process.
RSpec.describe 'Guarantee: a panic never ends the process; huge globs and patterns are refused', :native do
  before(:all) { @outcome = GuaranteeHelpers.run_script('huge_patterns.rb') }

  it 'survives every case (the child process exits normally)' do
    expect(@outcome[:status]).to be_success, @outcome[:output][-3000..] || @outcome[:output]
  end

  %i[native memory].each do |store|
    it "refuses a 100 KB glob in list_files and search_files on #{store}, saying the limit" do
      [@outcome[:"#{store}_list_glob"], @outcome[:"#{store}_search_glob"]].each do |answer|
        expect(answer&.dig(:error)).to include('100000 bytes long, over the limit of 4096; use a shorter glob')
      end
    end

    it "refuses a 100 KB pattern in search_files on #{store}, saying the limit" do
      expect(@outcome[:"#{store}_search_pattern"]&.dig(:error))
        .to include('pattern is 100000 bytes long, over the limit of 16384: search for a shorter')
    end

    it "answers a glob at the cap that compiles too large on #{store} without raising" do
      answer = @outcome[:"#{store}_glob_at_cap"]
      expect(answer).not_to be_nil
      expect(answer).not_to have_key(:raised)
    end

    it "raises ArgumentError, not fatal, from Search.run on #{store}" do
      expect(@outcome[:"#{store}_store_search"]).to include(raised: 'ArgumentError')
    end
  end

  it 'raises ArgumentError from the glob filter, and InternalError for a panic' do
    Prerequisites.test_hooks(self)
    expect(@outcome[:glob_filter]).to include(raised: 'ArgumentError')
    expect(@outcome[:panic]).to include(raised: 'RubyLLM::FileStore::InternalError')
  end
end
