# frozen_string_literal: true

RSpec.describe RubyLLM::FileStore::InlineLimit do
  let(:base) { Class.new { extend RubyLLM::FileStore::InlineLimit } }

  it 'is nil (the chat limit) until a class sets it' do
    expect(base.inline_limit).to be_nil
  end

  it 'is inherited by subclasses, which can set their own or go back to the chat limit' do
    base.inline_limit 50_000
    child = Class.new(base)
    grandchild = Class.new(child) { inline_limit false }
    reset = Class.new(child) { inline_limit nil }
    expect([base.inline_limit, child.inline_limit, grandchild.inline_limit, reset.inline_limit])
      .to eq([50_000, 50_000, false, nil])
  end

  it 'refuses limits that are not false or a whole number from 1000' do
    [999, 0, -5, 2.5, '10000', true].each do |bad|
      expect { base.inline_limit(bad) }.to raise_error(ArgumentError, /inline_limit must be false or a whole number/)
    end
  end

  it 'is on the file tools: read_file and search_files opt out, the others use the chat limit' do
    tools = RubyLLM::FileStore::Tools.for(RubyLLM::FileStore::Memory.new, tools: %i[read write edit delete])
    expect(tools.to_h { |tool| [tool.name, tool.class.inline_limit] })
      .to eq('list_files' => nil, 'read_file' => false, 'search_files' => false, 'write_file' => nil,
             'edit_file' => nil, 'delete_file' => nil)
  end
end
