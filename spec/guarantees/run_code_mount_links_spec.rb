# frozen_string_literal: true

require_relative 'run_code_helper'

# Guarantee (issue #16, 6): the host's work on a run's folder after the run
# (tearing down mount points, the sweep, removal over a cap or a budget)
# never follows a link. Code that renames a mount's parent folder and puts
# a link to an outside folder in its place makes the host remove nothing
# outside: each step starts from the folder's descriptor and refuses links.
RSpec.describe 'Guarantee: cleanup after a run never follows a link', :native do
  include_context 'with code execution'
  include RunCodeHelper

  let(:root) { File.join(@tmp, 'store') }
  let(:outside) { File.join(@tmp, 'outside') }
  let(:source) { File.join(@tmp, 'source') }

  before do
    FileUtils.mkdir_p([File.join(outside, 'ref'), File.join(outside, 'skills', 'tool'), source])
    File.write(File.join(outside, 'empty.txt'), '')
    File.write(File.join(source, 'readme.txt'), 'read only')
  end

  def outside_entries = everything(outside).map(&:first).sort

  it 'leaves the outside folder whole when a mount parent is swapped for a link to it' do
    before = outside_entries
    runner = shell_runner(RubyLLM::NativeDir.new(root), mounts: { 'data/ref' => source },
                                                        skills: { 'tool' => source })
    result = shell(runner, <<~SH)
      cat data/ref/readme.txt; echo
      mv data data.moved && ln -s #{outside} data
      mv skills skills.moved && ln -s #{outside}/skills skills
      echo swapped
    SH
    expect(result.stdout).to eq("read only\nswapped\n")
    expect(outside_entries).to eq(before)
  end

  it 'staged: the same swap leaves the outside folder whole' do
    before = outside_entries
    runner = shell_runner(RubyLLM::FileStore::Memory.new, mounts: { 'data/ref' => source })
    result = shell(runner, "mv data data.moved && ln -s #{outside} data && echo swapped")
    expect(result.stdout).to eq("swapped\n")
    expect(outside_entries).to eq(before)
  end
end
