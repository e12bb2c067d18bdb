# frozen_string_literal: true

require 'digest'
require 'json'

# One process of the mounts guarantee (spec/active_storage/mounts_guarantee_spec.rb):
# THREADS threads, each with a tree of its own over the same three stores
# (a NativeDir folder shared with the other process as the default store,
# the chat's Active Storage store at memories/, this process's Memory store
# at scratch/), moving this process's token files between the stores and
# within them, editing them through read_file and edit_file, and searching
# the whole tree, until the time is up. Every call's answer is checked: an
# exception other than the refusals a model gets ({ error: }) fails the run.
class MountsChurn
  THREADS = 4
  TOKENS = 12
  # The most a run goes on past its time for each kind of change to happen once.
  OVERTIME = 60
  PLACES = ['', 'memories/', 'scratch/'].freeze
  FOLDERS = ['', 'old/'].freeze

  def self.token_path(process, index) = "tok-#{process}-#{index}.md"

  def initialize(chat_id:, disk:, process:, seconds:)
    @chat_id = chat_id
    @disk = RubyLLM::NativeDir.new(disk)
    @scratch = RubyLLM::FileStore::Memory.new
    @process = process
    @seconds = seconds
    @counts = Hash.new(0)
    @lock = Mutex.new
  end

  # Writes this process's tokens, one per file, spread over the stores.
  def seed
    with_tree do |tree, _|
      TOKENS.times do |i|
        tree.write("#{PLACES[i % PLACES.size]}#{MountsChurn.token_path(@process, i)}", content(i, 0))
      end
    end
  end

  # Runs the threads until the time is up; returns what they did and what
  # this process's Memory store holds at the end (path => bytes).
  def run
    stop = Process.clock_gettime(Process::CLOCK_MONOTONIC) + @seconds
    threads = Array.new(THREADS) { |n| Thread.new { churn(n, stop) } }
    threads.each(&:join)
    { counts: @counts, scratch: @scratch.list.to_h { |f| [f.path, [@scratch.read(f.path), f.digest]] } }
  end

  private

  def content(index, edits) = "token-#{@process}-#{index}\nedits: #{edits}\n"

  def with_tree
    ActiveRecord::Base.connection_pool.with_connection do
      memories = RubyLLM::FileStore::ActiveStorage.new(Chat.find(@chat_id))
      tree = RubyLLM::FileStore::Mounts.new(@disk, 'memories' => memories, 'scratch' => @scratch)
      tools = RubyLLM::FileStore::Tools.for(tree, tools: %i[read write edit]).to_h { |t| [t.name, t] }
      yield tree, tools
    end
  end

  def churn(seed, stop)
    random = Random.new((@process * 100) + seed)
    with_tree do |tree, tools|
      while going?(stop)
        case random.rand(3)
        when 0 then move(tree, random)
        when 1 then edit(tree, tools, random)
        else search(tools)
        end
      end
    end
  end

  def count(what) = @lock.synchronize { @counts[what.to_s] += 1 }

  # Until the time is up, and past it (up to OVERTIME s more) until this
  # process has moved, edited and searched at least once: on a loaded
  # machine the time alone may pass before a move succeeds.
  def going?(stop)
    now = Process.clock_gettime(Process::CLOCK_MONOTONIC)
    return true if now < stop

    now < stop + OVERTIME && @lock.synchronize { %w[moved edited searched].any? { |what| @counts[what].zero? } }
  end

  def place(random) = "#{PLACES.sample(random:)}#{FOLDERS.sample(random:)}"

  def move(tree, random)
    name = MountsChurn.token_path(@process, random.rand(TOKENS))
    tree.move("#{place(random)}#{name}", "#{place(random)}#{name}")
    count(:moved)
  rescue RubyLLM::FileNotFoundError, RubyLLM::FileExistsError
    count(:move_refused) # it was elsewhere, or is there already
  rescue ArgumentError => e
    raise unless e.message.include?('are the same')
  end

  def edit(tree, tools, random)
    index = random.rand(TOKENS)
    file = tree.list.find { |f| f.filename == MountsChurn.token_path(@process, index) } or return
    read = tools.fetch('read_file').call('path' => file.path)
    return count(:read_refused) if read.is_a?(Hash)

    edits = read[/edits: (\d+)/, 1] or raise "#{file.path} holds #{read.inspect}"
    result = tools.fetch('edit_file').call('path' => file.path, 'old_text' => "edits: #{edits}\n",
                                           'new_text' => "edits: #{Integer(edits) + 1}\n")
    count(result.is_a?(String) && result.start_with?('Edited') ? :edited : :edit_refused)
  end

  def search(tools)
    out = tools.fetch('search_files').call('pattern' => "token-#{@process}-")
    raise "search failed: #{out.inspect}" unless out.is_a?(String) && !out.empty?

    count(:searched)
  end
end
