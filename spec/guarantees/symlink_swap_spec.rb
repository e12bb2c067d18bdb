# frozen_string_literal: true

require 'fileutils'
require 'json'
require 'stringio'
require 'timeout'
require_relative 'guarantee_helpers'
require_relative 'hostile_path_table'
require_relative 'symlink_swapper'

# Guarantee (issues #8, #30): a folder or a file swapped for a symbolic link
# between a check and a use never leads outside the store. A separate
# process (symlink_swapper.rb) swaps store/sub with a link to ../outside,
# sub/deep with an absolute link to outside/deep and sub/swap.txt with a
# link to outside/a.txt, atomically and as fast as it can, while 4 Ruby
# threads call every store method and every tool on paths under sub/. The
# outside files hold a secret: no result may show it (or an outside file's
# digest), the outside folder keeps its names, content and mtimes, every
# refusal says why, and at the end every file in the store holds inside
# content or content the threads wrote.
RSpec.describe 'Guarantee: a link swapped in between check and use leads nowhere', :native do
  include_context 'in a temporary folder'

  let(:seconds) { GuaranteeHelpers::LONG ? 10 : 4 }
  let(:threads) { 4 }
  let(:swapper_script) { File.expand_path('symlink_swapper.rb', __dir__) }

  # Every path the threads use: the swapped names themselves, files in
  # them, and new files and folders below them.
  let(:files) { %w[sub/a.txt sub/deep/b.txt sub/swap.txt sub/new.txt sub/deep/new.txt sub/deep/more/c.txt] }
  # Writing the swapped folder names would put a file where the swapper's
  # real folder belongs; reading and deleting them is fair game.
  let(:any_paths) { files + %w[sub sub/deep] }
  let(:folders) { [nil, 'sub', 'sub/deep', 'sub/deep/more'] }
  let(:globs) { ['sub/**', 'sub/deep/*', '**/*.txt', 'sub/swap.txt'] }

  # What the outside files hold: the secret, and a word inside content never has.
  def outside_content(name) = "#{HostilePathTable::SECRET}\nOUTSIDE #{name}\nEND\n"

  before do
    @root = File.join(@tmp, 'store')
    @outside = File.join(@tmp, 'outside')
    FileUtils.mkdir_p(File.join(@outside, 'deep'))
    %w[a.txt deep/b.txt].each { |name| File.write(File.join(@outside, name), outside_content(name)) }
    SymlinkSwapper.lay_out(@root)
    @before = GuaranteeHelpers.snapshot(@tmp, skip: [@root])
    @outside_digests = %w[a.txt deep/b.txt].map { |name| Digest::SHA256.hexdigest(outside_content(name)) }
  end

  def now = Process.clock_gettime(Process::CLOCK_MONOTONIC)

  # The swapper, swapping once it said so.
  def start_swapper
    io = IO.popen([RbConfig.ruby, swapper_script, @root, (seconds + 30).to_s], err: %i[child out])
    ready = Timeout.timeout(10) { io.gets }
    return io if ready == "ready\n"

    raise "the swapper did not start: #{ready.inspect}"
  rescue StandardError
    stop_swapper(io) if io
    raise
  end

  # Stops the swapper and reaps it; returns what it reported (swaps per name).
  def stop_swapper(io)
    begin
      Process.kill('TERM', io.pid)
      output = Timeout.timeout(10) { io.read }
    rescue Errno::ESRCH, Timeout::Error
      Process.kill('KILL', io.pid) rescue Errno::ESRCH # rubocop:disable Style/RescueModifier
    end
    io.close # waits for the child
    line = output.to_s.lines.reverse.find { |l| l.start_with?('{') }
    line ? JSON.parse(line) : { 'output' => output }
  end

  def written(tag) = "written #{tag}\nEND\n"
  def edit(path, tag) = { 'path' => path, 'old_text' => "END\n", 'new_text' => "edited #{tag}\nEND\n" }

  # Store methods that look: label => [paths, ->(path, tag) { ... }].
  def store_reads(store)
    {
      'read' => [any_paths, ->(p, _) { store.read(p) }], 'find' => [any_paths, ->(p, _) { store.find(p) }],
      '[]' => [any_paths, ->(p, _) { store[p] }], 'exist?' => [any_paths, ->(p, _) { store.exist?(p) }],
      'text' => [any_paths, ->(p, _) { store.text(p) }], 'list' => [folders, ->(p, _) { store.list(p) }],
      'total_size' => [[nil], ->(_, _) { store.total_size }],
      'search' => [folders, ->(p, _) { RubyLLM::FileStore::Search.run(store, 'CANARY|OUTSIDE|END', path: p) }]
    }
  end

  # The streamed read and write (chunks of a file, an IO written): the same shape.
  def store_streams(store)
    {
      'each_chunk' => [any_paths, ->(p, _) { store.each_chunk(p).map(&:dup).join }],
      'write of an IO' => [files, ->(p, tag) { store.write(p, StringIO.new(written(tag))) }]
    }
  end

  # Store methods that change: the same shape.
  def store_changes(store)
    {
      'write' => [files, ->(p, tag) { store.write(p, written(tag)) }],
      'delete' => [any_paths, ->(p, _) { store.delete(p) }],
      'delete_folder' => [%w[sub/deep sub/deep/more], ->(p, _) { store.delete_folder(p) }],
      # Files only: moving a swapped folder away would end the race.
      'move' => [files, ->(p, _) { store.move(p, (files - [p]).sample) }],
      'with_lock' => [files, ->(p, tag) { store.with_lock { [store[p], store.write(p, written(tag))] } }]
    }
  end

  # Tools that look.
  def tool_reads(call)
    {
      'read_file' => [any_paths, ->(p, _) { call.call('read_file', 'path' => p) }],
      'list_files' => [folders, ->(p, _) { call.call('list_files', 'path' => p) }],
      'list_files glob' => [globs, ->(g, _) { call.call('list_files', 'glob' => g) }],
      'search_files' => [folders, ->(p, _) { call.call('search_files', 'pattern' => 'CANARY|OUTSIDE', 'path' => p) }],
      'search_files glob' => [globs, ->(g, _) { call.call('search_files', 'pattern' => 'OUTSIDE|END', 'glob' => g) }]
    }
  end

  # Tools that change, each after a read_file of its file (read before change).
  def tool_changes(call)
    read_then = ->(path, name, args) { call.call('read_file', 'path' => path) && call.call(name, args) }
    {
      'write_file' => [files, ->(p, tag) { read_then.call(p, 'write_file', 'path' => p, 'content' => written(tag)) }],
      'edit_file' => [files, ->(p, tag) { read_then.call(p, 'edit_file', edit(p, tag)) }],
      'edit_file edits' => [files, lambda do |p, tag|
        call.call('read_file', 'path' => 'sub/a.txt')
        read_then.call(p, 'edit_file', 'edits' => [edit('sub/a.txt', "#{tag}a"), edit(p, "#{tag}b")])
      end],
      'delete_file' => [any_paths, ->(p, _) { call.call('delete_file', 'path' => p) }]
    }
  end

  # move_file, no read needed: files only, as the store's move.
  def tool_moves(call)
    { 'move_file' => [files, ->(p, _) { call.call('move_file', 'path' => p, 'new_path' => (files - [p]).sample) }] }
  end

  def operations(store)
    tools = RubyLLM::FileStore::Tools.for(store, tools: %i[read write edit delete move]).to_h { |t| [t.name, t] }
    call = ->(name, args) { tools.fetch(name).call(args) }
    [store_reads(store), store_changes(store), store_streams(store),
     tool_reads(call), tool_changes(call), tool_moves(call)].reduce(:merge)
  end

  # Labels to draw from: deletes rarer than the rest, so files live a while.
  def weighted(operations)
    weights = Hash.new(4).merge('delete_folder' => 1, 'delete' => 2, 'delete_file' => 2)
    operations.keys.flat_map { |label| [label] * weights[label] }
  end

  # One thread's work until +deadline+: a report of what it did and what was wrong.
  def work(operations, num, deadline)
    random = Random.new(rand(1 << 30))
    report = { 'ops' => 0, 'refused' => 0, 'symlink' => 0, 'wrong' => [], 'wrong_count' => 0 }
    labels = weighted(operations)
    i = 0
    while now < deadline
      label = labels.sample(random:)
      paths, operation = operations.fetch(label)
      path = paths.sample(random:)
      Thread.current[:op] = where = "#{label}(#{path.inspect})"
      judge(report, label, where, HostilePathTable.outcome { operation.call(path, "t#{num}-#{i += 1}") })
    end
    report
  end

  def clear?(message)
    message.to_s.match?(HostilePathTable::CLEAR) || GuaranteeHelpers.known_refusal?(message.to_s)
  end

  # Notes in +report+ anything wrong with one operation's outcome.
  def judge(report, label, where, (kind, value))
    report['ops'] += 1
    kind, value = :refused, value[:error] if value.is_a?(Hash) && value.key?(:error) # rubocop:disable Style/ParallelAssignment
    wrong = kind == :raised ? ["#{where} raised #{value.class}: #{value.message}"] : []
    wrong.concat(refusal(report, where, value)) if kind == :refused
    wrong.concat(leaks(kind == :ok ? label : kind.to_s, where, value))
    report['wrong_count'] += wrong.size
    report['wrong'].concat(wrong.first(20 - report['wrong'].size)) if report['wrong'].size < 20
  end

  def refusal(report, where, message)
    report['refused'] += 1
    report['symlink'] += 1 if message.to_s.include?('symbolic link')
    # The swapped names are only ever folders or links: calling one a file
    # would be a wrong reason (the store looks again when a link turns back
    # into a folder under it).
    return ["#{where} called a swapped folder a file: #{message}"] if message.to_s.include?('goes through a file')

    clear?(message) ? [] : ["#{where} refused unclearly: #{message}"]
  end

  # What a result shows of the outside: its secret, its word, its digests.
  def leaks(label, where, value)
    shown = HostilePathTable.show(value)
    found = []
    found << "#{where} showed the outside: #{shown[0, 200]}" if shown.match?(/#{HostilePathTable::SECRET}|OUTSIDE/o)
    Array(value).grep(RubyLLM::StoredFile).each do |file|
      found << "#{where} gave an outside file's digest for #{file.path}" if @outside_digests.include?(file.digest)
    end
    if %w[read text].include?(label) && value.is_a?(String) && !value.start_with?('inside ', 'written ')
      found << "#{where} read bytes nobody wrote: #{value[0, 200].inspect}"
    end
    found
  end

  # Every thread's report; a thread still running long after its deadline
  # is a hang, named by the operation it was in.
  def hammer(store)
    operations = operations(store)
    deadline = now + seconds
    workers = Array.new(threads) { |n| Thread.new { work(operations, n, deadline) } }
    watchdog = deadline + 20
    workers.map.with_index { |worker, n| finished(worker, n, watchdog) }
  end

  def finished(worker, num, watchdog)
    return worker.value if worker.join([watchdog - now, 0].max)

    hung_in = worker[:op]
    worker.kill
    { 'ops' => 0, 'refused' => 0, 'symlink' => 0, 'wrong' => ["thread #{num} hung in #{hung_in}"], 'wrong_count' => 1 }
  end

  def totals(reports)
    %w[ops refused symlink wrong_count].to_h { |key| [key, reports.sum { |r| r[key] }] }
                                       .merge('wrong' => reports.flat_map { |r| r['wrong'] })
  end

  # Nothing outside changed: names, content, mtimes.
  def check_outside
    expect(GuaranteeHelpers.snapshot(@tmp, skip: [@root])).to eq(@before), 'something outside the store changed'
    %w[a.txt deep/b.txt].each do |name|
      expect(File.read(File.join(@outside, name))).to eq(outside_content(name))
    end
  end

  # The swapped names are real again, and every store file holds inside or written bytes.
  def check_store(store)
    SymlinkSwapper::PAIRS.each do |folder, name, _hidden, _target|
      expect(File.symlink?(File.join(@root, folder, name))).to be(false), "#{name} was left a link"
    end
    store.list.each do |file|
      content = store.read(file.path)
      expect(content).to match(/\A(inside|written) /), "#{file.path} holds #{content[0, 200].inspect}"
    end
  end

  # Nothing wrong was seen, and there was a race: many swaps, many
  # operations, and some of them met a link and refused it.
  def check_outcome(total, swapped)
    expect(total['wrong']).to eq([]), "#{total['wrong_count']} wrong outcomes, the first:\n#{total['wrong'].join("\n")}"
    expect(swapped['swaps']).to include('sub' => be > 200, 'deep' => be > 200, 'swap.txt' => be > 200), swapped.to_s
    expect(total['ops']).to be > 500
    expect(total['symlink']).to be > 10
  end

  it 'on a NativeDir: every method and tool, while folders and a file turn into links to the outside' do
    store = RubyLLM::NativeDir.new(@root)
    swapper = start_swapper
    begin
      reports = hammer(store)
    ensure
      swapped = stop_swapper(swapper)
      SymlinkSwapper.restore(@root)
    end
    total = totals(reports)
    puts "symlink swap: #{total.except('wrong')} swaps: #{swapped}" if ENV['GUARANTEES_VERBOSE']
    aggregate_failures do
      check_outcome(total, swapped)
      check_outside
      check_store(store)
    end
  end
end
