# frozen_string_literal: true

require 'tmpdir'

# Runs a group of examples on every kind of store: Memory, NativeDir, and a
# user's own store (BucketStore). Inside, `store` is a fresh store and
# `tools` the tools for it by name.
module StoreMatrix
  STORES = {
    'a Memory store' => ->(_dir) { RubyLLM::FileStore::Memory.new },
    'a NativeDir' => ->(dir) { RubyLLM::NativeDir.new(File.join(dir, 'store')) },
    "a user's own store" => ->(_dir) { BucketStore.new }
  }.freeze

  def on_every_store(&)
    STORES.each do |label, make|
      context "on #{label}" do
        include_context 'in a temporary folder'

        let(:store) { make.call(@tmp) }
        let(:inline_limit) { RubyLLM::FileStore::Tools::DEFAULT_INLINE_LIMIT }
        let(:tools) do
          RubyLLM::FileStore::Tools.for(store, tools: %i[read write edit delete move], inline_limit:)
                                   .to_h { |tool| [tool.name, tool] }
        end

        define_method(:call_tool) { |name, **args| tools.fetch(name).call(args.transform_keys(&:to_s)) }
        class_exec(&)
      end
    end
  end
end

RSpec.configure { |config| config.extend StoreMatrix }
