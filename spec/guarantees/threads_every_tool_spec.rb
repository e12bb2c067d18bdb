# frozen_string_literal: true

require_relative 'guarantee_helpers'

# Guarantee: one store serves many Ruby threads at once. 8 threads share a
# store and call every tool: each works on a file of its own (so its result
# is exactly predictable) and all of them on one shared file. Nothing raises,
# refusals are the known ones, and each thread's file ends as it left it.
RSpec.describe 'Guarantee: 8 threads share one store through every tool', :native do
  include_context 'in a temporary folder'

  # Calls +name+ with +args+; notes the result unless it matches +pattern+
  # or is a known refusal.
  def checked(wrong, tools, name, args, pattern)
    result = tools[name].call(args)
    fine = result.is_a?(String) ? result.match?(pattern) : GuaranteeHelpers.known_refusal?(result[:error])
    wrong << "#{name} #{args}: #{result.inspect[0, 200]}" unless fine
    result.is_a?(String)
  end

  # Returns the unexpected results thread +num+ saw.
  def work(tools, num)
    own = "threads/t#{num}.md"
    wrong = []
    20.times do |i|
      checked(wrong, tools, 'write_file', { 'path' => own, 'content' => "round #{i}\nEND\n" }, /\A(Created|Replaced) /)
      checked(wrong, tools, 'read_file', { 'path' => own }, /\Around #{i}\nEND\n\z/)
      checked(wrong, tools, 'edit_file', { 'path' => own, 'old_text' => 'END', 'new_text' => "by #{num}\nEND" },
              /\AEdited /)
      tools['read_file'].call('path' => 'shared.md')
      edit = { 'path' => 'shared.md', 'old_text' => "END\n", 'new_text' => "t#{num}-#{i}\nEND\n" }
      @edited << "t#{num}-#{i}" if checked(wrong, tools, 'edit_file', edit, /\AEdited /)
      checked(wrong, tools, 'search_files', { 'pattern' => "by #{num}$", 'path' => 'threads' }, /#{own}:2:/)
      checked(wrong, tools, 'list_files', { 'path' => 'threads' }, /#{own} /)
    end
    checked(wrong, tools, 'delete_file', { 'path' => "threads/gone-#{num}.md" }, /\ADeleted /)
    wrong
  end

  { 'a NativeDir' => ->(dir) { RubyLLM::NativeDir.new(File.join(dir, 'store')) },
    'a Memory store' => ->(_dir) { RubyLLM::FileStore::Memory.new } }.each do |label, make|
    it "on #{label}" do
      store = make.call(@tmp)
      @edited = Queue.new
      store.write('shared.md', "# Shared\nEND\n")
      8.times { |n| store.write("threads/gone-#{n}.md", 'to delete') }
      tools = RubyLLM::FileStore::Tools.for(store, tools: %i[read write edit delete]).to_h { |t| [t.name, t] }
      wrong = Array.new(8) { |n| Thread.new { work(tools, n) } }.flat_map(&:value)
      expect(wrong).to eq([])
      8.times { |n| expect(store.read("threads/t#{n}.md")).to eq("round 19\nby #{n}\nEND\n") }
      shared = store.read('shared.md').scan(/^t\d-\d+$/)
      expect(shared.size).to be > 8 # edits refused for a concurrent change are known refusals, not losses
      expect(shared.sort).to eq(Array.new(@edited.size) { @edited.pop }.sort) # every successful edit, once
      expect(store.list.map(&:path)).to eq(['shared.md'] + Array.new(8) { |n| "threads/t#{n}.md" })
    end
  end
end
