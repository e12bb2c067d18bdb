# frozen_string_literal: true

require_relative 'guarantee_helpers'

# Guarantee: converting an Office file costs work and memory in proportion to
# the file, and stops when asked. Each crafted file is built and converted in
# its own Ruby (spec/scripts/office_limits.rb), capped at 3 GB of address
# space and 60 s of CPU, which reports the result, its peak resident memory
# (VmHWM) and the CPU seconds the conversion took. The CPU bounds are ten
# times and more what the conversions take, and a tenth or less of what the
# same files took before.
RSpec.describe 'Guarantee: Office conversion work stays in proportion to the file', :native do
  def run_case(name)
    outcome = GuaranteeHelpers.run_script('office_limits.rb', name)
    expect(outcome[:status]).to be_success, "#{name} failed:\n#{outcome[:output][-2000..] || outcome[:output]}"
    outcome
  end

  it 'counts Word list labels against the output as it is made, and cuts a 1 MB level text (peak under 400 MB)' do
    outcome = run_case('word_label_bomb')
    expect(outcome[:result]).to be_a(String).and include('item')
    expect(outcome[:result]).not_to include('L' * 300)
    expect(outcome[:peak_mb]).to be < 400
  end

  it 'keeps the text of tables nested 3,300 deep once, not once per level (under 3 s of CPU)' do
    outcome = run_case('nested_tables')
    expect(outcome[:result]).to match(/\A[ab]{1000}/)
    expect(outcome[:cpu_seconds]).to be < 3
  end

  it 'returns from Timeout.timeout(1) around the same file within 2.5 s, done or stopped' do
    outcome = run_case('nested_tables_timeout')
    expect(outcome[:wall_seconds]).to be < 2.5
  end

  it 'finds 200,000 slide relationships by key and shows a slide listed again once (under 3 s of CPU)' do
    outcome = run_case('slide_relationships')
    expect(outcome[:result])
      .to start_with("## Slide 1\nonly slide\n\n## Slide 2\n(the same slide as Slide 1, shown above)")
    expect(outcome[:cpu_seconds]).to be < 3
  end

  it 'sweeps 300,000 merged ranges that never close in time proportional to them (under 5 s of CPU)' do
    outcome = run_case('open_merges')
    expect(outcome[:result]).to start_with("## S\n1\n2\n3\n")
    expect(outcome[:cpu_seconds]).to be < 5
  end

  it 'refuses a .docx of 5,000 end-of-central-directory records at once (the old build parsed 25 M entries, twice)' do
    outcome = run_case('end_records')
    expect(outcome[:result]).to include(error: a_string_including('end-of-central-directory records'))
    expect(outcome[:cpu_seconds]).to be < 2
    expect(outcome[:peak_mb]).to be < 1024
  end

  it 'returns from Timeout.timeout(1) around the same file within 2 s' do
    outcome = run_case('end_records_timeout')
    expect(outcome[:wall_seconds]).to be < 2
  end

  it 'stops the zip reader retrying 5,000 end records that lie before the last 64 KiB (under 2 s of CPU)' do
    outcome = run_case('end_records_far')
    expect(outcome[:result]).to include(error: a_string_including('reads of the file to open'))
    expect(outcome[:cpu_seconds]).to be < 2
  end

  it 'reads an element of 40,000 attribute names and 40,000 copies of the last in time proportional to it ' \
     '(the old build: 22 s of CPU in one XML event)' do
    outcome = run_case('duplicate_attributes')
    expect(outcome[:result]).to eq("one line\n")
    expect(outcome[:cpu_seconds]).to be < 2
  end

  it 'returns from Timeout.timeout(1) around the same file within 2 s' do
    outcome = run_case('duplicate_attributes_timeout')
    expect(outcome[:wall_seconds]).to be < 2
  end

  it 'drops the NUL of an Excel cell _x0000_, so search finds the rows read_file shows' do
    outcome = run_case('nul_cell')
    expect(outcome[:result]).to eq(text: "## S\n\nTotal due\n", search: "nul.xlsx:3:Total due\n")
  end

  it 'counts a shared string repeated by the cells of two sheets against one text budget (peak under 360 MB)' do
    outcome = run_case('shared_string_repeated')
    expect(outcome[:result]).to include(error: a_string_including('over the 256 MB limit'))
    expect(outcome[:peak_mb]).to be < 360
  end

  it 'shows a sheet listed 20,000 times once, quickly (under 2 s of CPU)' do
    outcome = run_case('sheet_listed_again')
    expect(outcome[:result]).to start_with("## S1\n7919\n")
      .and end_with(%(## S20000\n(the same sheet as "S1", shown above)\n))
    expect(outcome[:cpu_seconds]).to be < 2
  end
end
