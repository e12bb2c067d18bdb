# frozen_string_literal: true

require_relative 'guarantee_helpers'

# One model's worth of work for concurrency_spec.rb: until its deadline it
# edits files that only edit_file touches (each edit appends a unique marker,
# some in two files at once), writes and deletes other files with write_file
# and delete_file, and reads, lists and searches everything. It records what
# succeeded, so the spec can check that every successful edit is there at the
# end, and any refusal that is not one of the known ones.
class ChurnWorker
  EDIT_FILES = %w[edit/e0.md edit/e1.md edit/e2.md].freeze
  CHURN_FILES = %w[churn/w0.md churn/w1.md churn/w2.md].freeze

  attr_reader :report

  def initialize(store, id, seconds)
    tools = RubyLLM::FileStore::Tools.for(store, tools: %i[read write edit delete], inline_limit: false)
    @tools = tools.to_h { |t| [t.name, t] }
    @id = id
    @deadline = Process.clock_gettime(Process::CLOCK_MONOTONIC) + seconds
    @random = Random.new(id.hash)
    @report = { 'edits' => Hash.new { |h, k| h[k] = [] }, 'writes' => Hash.new { |h, k| h[k] = [] },
                'deletes' => 0, 'refusals' => 0, 'unexpected' => [] }
    @count = 0
  end

  # A written version: a header naming it and a body that repeats it, so a
  # torn or mixed file shows.
  def self.version(name, lines) = "#{name}\n#{"payload #{name}\n" * lines}"

  def self.whole_version?(text)
    name = text[/\A(.*)\n/, 1]
    !name.nil? && text == version(name, text.lines.size - 1)
  end

  def run
    step while Process.clock_gettime(Process::CLOCK_MONOTONIC) < @deadline
    @report
  end

  private

  def step
    @count += 1
    case @random.rand(100)
    when 0...35 then edit_one
    when 35...45 then edit_two
    when 45...70 then write_one
    when 70...80 then delete_one
    else look_around
    end
  end

  def call(name, args)
    result = @tools.fetch(name).call(args)
    return result if result.is_a?(String) || !result.is_a?(Hash)

    @report['refusals'] += 1
    @report['unexpected'] << "#{name}: #{result[:error]}" unless GuaranteeHelpers.known_refusal?(result[:error])
    nil
  end

  def marker = "m-#{@id}-#{@count}"

  def edit_one
    path = EDIT_FILES.sample(random: @random)
    call('read_file', 'path' => path)
    mark = marker
    return unless call('edit_file', 'path' => path, 'old_text' => "END\n", 'new_text' => "#{mark}\nEND\n")

    @report['edits'][path] << mark
  end

  # One call, two files: all or nothing.
  def edit_two
    first, second = EDIT_FILES.sample(2, random: @random)
    [first, second].each { |path| call('read_file', 'path' => path) }
    marks = ["#{marker}-a", "#{marker}-b"]
    edits = [first, second].zip(marks).map do |path, mark|
      { 'path' => path, 'old_text' => "END\n", 'new_text' => "#{mark}\nEND\n" }
    end
    return unless call('edit_file', 'edits' => edits)

    @report['edits'][first] << marks[0]
    @report['edits'][second] << marks[1]
  end

  def write_one
    path = CHURN_FILES.sample(random: @random)
    read_whole(path)
    content = self.class.version("#{path} by #{marker}", @random.rand(1..2000))
    @report['writes'][path] << content if call('write_file', 'path' => path, 'content' => content)
  end

  def delete_one
    @report['deletes'] += 1 if call('delete_file', 'path' => CHURN_FILES.sample(random: @random))
  end

  def look_around
    call('list_files', {})
    call('search_files', 'pattern' => 'm-[0-9]+', 'files_only' => true)
    read_whole(CHURN_FILES.sample(random: @random))
  end

  # Reads all of +path+ with read_file, and notes a version that is not whole.
  def read_whole(path)
    text = call('read_file', 'path' => path, 'limit' => 100_000)
    return unless text && !text.start_with?('[')

    @report['unexpected'] << "read_file #{path} gave a torn file" unless self.class.whole_version?(text)
  end
end
