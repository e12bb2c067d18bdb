# frozen_string_literal: true

# edit_file calls running at once take turns, each on the file as the one
# before left it: no edit is lost, across threads and processes.
RSpec.describe 'edit_file at once', :native do
  include_context 'in a temporary folder'
  before { @root = File.join(@tmp, 'store') }

  # Appends +count+ markers through the tools, as a model would: read, edit,
  # and read again when the file changed since. Returns the markers written.
  def append_markers(store, worker, count)
    tools = RubyLLM::FileStore::Tools.for(store).to_h { |t| [t.name, t] }
    Array.new(count) do |i|
      marker = "marker-#{worker}-#{i}"
      loop do
        tools['read_file'].call(path: 'shared.md')
        result = tools['edit_file'].call(path: 'shared.md', old_text: "END\n", new_text: "#{marker}\nEND\n")
        break if result.is_a?(String) && result.start_with?('Edited')
        raise "unexpected refusal: #{result}" unless result[:error].include?('changed since you read it')
      end
      marker
    end
  end

  def markers_in(text) = text.scan(/^marker-\S+$/)

  it 'loses no edit from 8 threads on one NativeDir' do
    store = RubyLLM::NativeDir.new(@root)
    store.write('shared.md', "# Log\nEND\n")
    written = Array.new(8) { |t| Thread.new { append_markers(store, "t#{t}", 15) } }.flat_map(&:value)
    expect(markers_in(store.read('shared.md')).sort).to eq(written.sort)
    expect(written.size).to eq(120)
  end

  it 'loses no edit from 4 processes, each with its own NativeDir on the folder' do
    RubyLLM::NativeDir.new(@root).write('shared.md', "# Log\nEND\n")
    pids = Array.new(4) do |p|
      fork do
        append_markers(RubyLLM::NativeDir.new(@root), "p#{p}", 25)
        exit!(0)
      rescue StandardError => e
        warn e.full_message
        exit!(1)
      end
    end
    expect(pids.map { |pid| Process.wait2(pid).last }).to all(be_success)
    markers = markers_in(RubyLLM::NativeDir.new(@root).read('shared.md'))
    expect(markers.size).to eq(100)
    expect(markers.uniq.size).to eq(100)
  end

  it 'loses no edit from 8 threads on one Memory store' do
    store = RubyLLM::FileStore::Memory.new
    store.write('shared.md', "# Log\nEND\n")
    written = Array.new(8) { |t| Thread.new { append_markers(store, "t#{t}", 15) } }.flat_map(&:value)
    expect(markers_in(store.read('shared.md')).sort).to eq(written.sort)
  end

  it 'fails an edit whose old_text an earlier edit changed, instead of writing over it' do
    store = RubyLLM::NativeDir.new(@root)
    store.write('plan.md', "status: draft\n")
    tools = Array.new(2) { RubyLLM::FileStore::Tools.for(store).to_h { |t| [t.name, t] } }
    tools.each { |t| t['read_file'].call(path: 'plan.md') }
    first = tools[0]['edit_file'].call(path: 'plan.md', old_text: 'status: draft', new_text: 'status: final')
    # Both tool sets share the store's read memory: the second model's edit is
    # checked against the file as the first left it, and its old_text is gone.
    second = tools[1]['edit_file'].call(path: 'plan.md', old_text: 'status: draft', new_text: 'status: review')
    expect(first).to start_with('Edited')
    expect(second).to eq(error: 'Edit 1: old_text does not appear in plan.md')
    expect(store.read('plan.md')).to eq("status: final\n")
  end

  it 'lets the later of two write_file calls win' do
    store = RubyLLM::NativeDir.new(@root)
    tools = RubyLLM::FileStore::Tools.for(store).to_h { |t| [t.name, t] }
    tools['write_file'].call(path: 'out.md', content: 'first')
    tools['write_file'].call(path: 'out.md', content: 'second')
    expect(store.read('out.md')).to eq('second')
  end
end
