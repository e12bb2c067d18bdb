# frozen_string_literal: true

require_relative 'support/active_storage_helper'

# Moves in a tree of stores whose default is a chat's Active Storage store,
# through move_file as a model calls it: what the model read moves with the
# file whichever way it goes (the store keeps it in the row, which a move
# to another store deletes), and the same chat's read-only view refuses.
RSpec.describe RubyLLM::FileStore::Mounts, 'with Active Storage' do
  let(:chat) { Chat.create!(title: 'Mounts') }
  let(:other) { Chat.create!(title: 'Other') }
  let(:memory) { RubyLLM::FileStore::Memory.new }
  let(:tree) do
    described_class.new(store_for(chat), 'mem' => memory, 'other' => store_for(other),
                                         'ro' => store_for(other, read_only: true))
  end
  let(:tools) do
    RubyLLM::FileStore::Tools.for(tree, tools: %i[read edit move]).to_h { |tool| [tool.name, tool] }
  end

  def edit(path, old, new) = tools['edit_file'].call('path' => path, 'old_text' => old, 'new_text' => new)

  it 'moves what the model read with the file, off Active Storage, onto it, between chats and within one' do
    store_for(chat).write('f/x.md', "x0\n")
    tools['read_file'].call('path' => 'f/x.md')
    steps = [%w[f mem/f], %w[mem/f g], %w[g other/g], %w[other/g other/h], %w[other/h i]]
    results = steps.each_with_index.map do |(from, to), step|
      moved = tools['move_file'].call('path' => from, 'new_path' => to)
      [moved, edit("#{to}/x.md", "x#{step}", "x#{step + 1}")]
    end
    expect(results.map(&:last)).to all(match(/\AEdited /))
    expect(store_for(chat).read('i/x.md')).to eq("x5\n")
    expect(store_for(other).list).to eq([])
  end

  it 'a chat locks once by its row, whatever store object or owner view takes it' do
    owner = User.create!(name: 'Ada')
    keys = [store_for(chat), store_for(chat, read_only: true), store_for(chat).for_owner(owner)].map(&:lock_key)
    expect(keys.uniq).to eq(["RubyLLM::FileStore::ActiveStorage:chats:#{chat.id}"])
    expect(store_for(other).lock_key).not_to eq(keys.first)
  end

  it "refuses a move into, out of and within the read-only view of another chat's files" do
    store_for(other).write('policy.md', "p\n")
    store_for(chat).write('x.md', "x\n")
    answers = [%w[x.md ro/x.md], %w[ro/policy.md p.md], %w[ro/policy.md ro/q.md]].map do |from, to|
      tools['move_file'].call('path' => from, 'new_path' => to)
    end
    expect(answers).to eq([{ error: RubyLLM::FileStore::ReadOnlyError.new('ro/x.md').message },
                           { error: RubyLLM::FileStore::ReadOnlyError.new('ro/policy.md').message },
                           { error: RubyLLM::FileStore::ReadOnlyError.new('ro/policy.md').message }])
    expect(store_for(other).list.map(&:path)).to eq(['policy.md'])
  end
end
