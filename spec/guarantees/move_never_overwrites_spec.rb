# frozen_string_literal: true

require 'rbconfig'
require_relative 'guarantee_helpers'

# Guarantee (issue #30): a move never overwrites. 8 threads (and, on a
# NativeDir, a second process) each write files of their own and move them
# onto one shared name, then on to a name of their own: every move onto the
# shared name while another file is there fails with FileExistsError, and at
# the end every file written is somewhere, once, with the bytes it was
# written with. A move that replaced would lose the file it replaced.
RSpec.describe 'Guarantee: a move never overwrites, and two movers onto one name lose nothing' do
  include_context 'in a temporary folder'

  let(:rounds) { GuaranteeHelpers::LONG ? 400 : 60 }

  # One mover's rounds: write its file, move it onto shared.md, then on to
  # done/; a refused move leaves the file where it was, to count later.
  def mover(store, name, rounds)
    tally = { moved: 0, refused: 0 }
    rounds.times do |i|
      path = "in/#{name}-#{i}.md"
      store.write(path, "#{name} #{i}\n")
      begin
        store.move(path, 'shared.md')
      rescue RubyLLM::FileExistsError
        tally[:refused] += 1
        next
      end
      tally[:moved] += 1
      Thread.pass # lets the others try shared.md while it is taken
      # Whoever's file shared.md holds now goes to its own name.
      begin
        content = store.read('shared.md')
        store.move('shared.md', "done/#{content.split.join('-')}.md")
      rescue RubyLLM::FileNotFoundError, RubyLLM::FileExistsError
        nil # another mover took it on already
      end
    end
    tally
  end

  # Every file written is once in the store, holding its own bytes.
  def expect_nothing_lost(store, written)
    contents = store.list.map { |file| store.read(file.path) }
    expect(contents.size).to eq(contents.uniq.size), 'a file is in the store twice'
    expect(contents.sort).to eq(written.sort)
  end

  def written_by(names, rounds) = names.flat_map { |name| Array.new(rounds) { |i| "#{name} #{i}\n" } }

  def hammer(store, names)
    names.map { |name| Thread.new { mover(store, name, rounds) } }.map(&:value)
  end

  it 'on a Memory store' do
    store = RubyLLM::FileStore::Memory.new
    names = Array.new(8) { |n| "t#{n}" }
    tallies = hammer(store, names)
    expect(tallies.sum { |t| t[:refused] }).to be > 0 # they met
    expect_nothing_lost(store, written_by(names, rounds))
  end

  it 'on a NativeDir, from 8 threads and a second process' do
    root = File.join(@tmp, 'store')
    store = RubyLLM::NativeDir.new(root)
    script = <<~RUBY
      $LOAD_PATH.unshift(#{File.expand_path('../../lib', __dir__).inspect})
      require 'ruby_llm/file_stores/native'
      store = RubyLLM::NativeDir.new(ARGV[0])
      ARGV[1].to_i.times do |i|
        path = "in/p-\#{i}.md"
        store.write(path, "p \#{i}\\n")
        begin
          store.move(path, 'shared.md')
          content = store.read('shared.md')
          store.move('shared.md', "done/\#{content.split.join('-')}.md")
        rescue RubyLLM::FileExistsError, RubyLLM::FileNotFoundError
          nil
        end
      end
    RUBY
    other = Process.spawn(RbConfig.ruby, '-e', script, root, rounds.to_s)
    names = Array.new(8) { |n| "t#{n}" }
    tallies = hammer(store, names)
    _, status = Process.wait2(other)
    expect(status).to be_success
    expect(tallies.sum { |t| t[:refused] }).to be > 0
    expect_nothing_lost(store, written_by(names + ['p'], rounds))
  end
end
