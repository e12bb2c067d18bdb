# frozen_string_literal: true

require_relative 'support/active_storage_helper'

# apply_patch on Active Storage (issue #31): all or nothing across files,
# read before change, and *** Move to: through the store's own move.
RSpec.describe RubyLLM::FileStore::ActiveStorage, 'apply_patch' do
  let(:chat) { Chat.create!(title: 'Patched') }
  let(:store) { store_for(chat) }
  let(:tools) { RubyLLM::FileStore::Tools.for(store, tools: %i[read patch]).to_h { |t| [t.name, t] } }

  def read(*paths) = paths.each { |path| tools.fetch('read_file').call('path' => path) }
  def patch(body) = tools.fetch('apply_patch').call('patch' => "*** Begin Patch\n#{body}*** End Patch\n")

  before do
    store.write('app/models/user.rb', "class User\n  def name\n    'x'\n  end\nend\n")
    store.write('a.rb', "a\r\nb\r\n")
    store.write('old.rb', "old\n")
  end

  it 'updates, adds, deletes and moves in one call' do
    read('app/models/user.rb', 'a.rb', 'old.rb')
    result = patch("*** Update File: app/models/user.rb\n@@ def name\n-    'x'\n+    'y'\n" \
                   "*** Add File: app/models/account.rb\n+class Account\n+end\n*** Delete File: old.rb\n" \
                   "*** Update File: a.rb\n*** Move to: lib/b.rb\n@@\n a\n-b\n+c\n")
    expect(result).to eq('Updated app/models/user.rb (1 hunk), added app/models/account.rb, deleted old.rb, ' \
                         'moved a.rb to lib/b.rb (1 hunk).')
    expect(store.read('app/models/user.rb')).to eq("class User\n  def name\n    'y'\n  end\nend\n")
    expect(store.read('lib/b.rb')).to eq("a\r\nc\r\n")
    expect(chat.ruby_llm_chat_files.pluck(:path)).to contain_exactly('app/models/account.rb', 'app/models/user.rb',
                                                                     'lib/b.rb')
    expect(patch("*** Update File: lib/b.rb\n@@\n-c\n+d\n")).to eq('Updated lib/b.rb (1 hunk).')
  end

  it 'writes nothing when a later file fails, and refuses a file not read' do
    read('a.rb', 'app/models/user.rb')
    result = patch("*** Update File: a.rb\n@@\n-a\n+z\n*** Add File: new.txt\n+n\n" \
                   "*** Update File: app/models/user.rb\n@@\n-nope\n+x\n")
    expect(result[:error]).to start_with('Hunk 1 of app/models/user.rb does not match')
    expect(store.read('a.rb')).to eq("a\r\nb\r\n")
    expect(store['new.txt']).to be_nil
    expect(patch("*** Delete File: old.rb\n")).to eq(error: 'You have not read old.rb. Read it with read_file first.')
  end

  # Issue #38, item 6: a later path through a file is refused before the first write.
  it_behaves_like 'apply_patch placing every path before writing'
end
