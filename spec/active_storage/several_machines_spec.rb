# frozen_string_literal: true

require_relative 'support/active_storage_helper'
require_relative 'support/machines'

# Guarantee (README: workers on several machines): three worker processes,
# each with a temporary folder and a Disk root of its own, sharing only
# PostgreSQL and the S3 bucket, as Puma and Sidekiq processes on three
# machines do, each append to one log with edit_file and write a file with
# write_file on one chat, started together through a pipe: no append is
# lost, no tool answers a lock (or any other) error, and every row's digest
# is its blob's bytes. 50 times each in bin/test, whose Active Storage run
# has about 30 s for this: the issue's 200 took about 4x as long (with
# GUARANTEES_LONG=1, or RUBY_LLM_MACHINE_COUNT=200).
#
# On PostgreSQL with the S3 service only: with the Disk service, separate
# machines would not see each other's files, and SQLite is a file on one
# machine (bin/test-active-storage runs the other three configurations too;
# this group says it is left out there).
RSpec.describe RubyLLM::FileStore::ActiveStorage, 'workers on several machines' do
  several = ActiveStorageSpecApp.postgresql? && ActiveStorageSpecApp.s3?
  after { Machines.kill_all }

  count = Integer(ENV.fetch('RUBY_LLM_MACHINE_COUNT') { ENV['GUARANTEES_LONG'] ? '200' : '50' })

  it "loses no edit and answers no error with 3 workers x #{count} edit_file appends and write_files",
     skip: (several ? false : 'machines share only PostgreSQL and S3: this runs on that configuration') do
    chat = Chat.create!(title: 'Three machines')
    store_for(chat).write('log.md', "END\n")
    names = %w[alpha beta gamma]
    workers = Machines.start(names.map { |name| [['appends', chat.id, name, count]] }, own_storage: true)
    reports = workers.map(&:finish)

    expect(reports.map(&:last)).to all(be(true)), reports.map(&:first).join("\n")
    expect(reports.map { |out, _| JSON.parse(out)['failures'] }).to all(eq([]))
    lines = store_for(Chat.find(chat.id)).read('log.md').lines(chomp: true)
    expect(lines.last).to eq('END')
    names.each do |name|
      expect(lines.grep(/\A#{name} /)).to eq(Array.new(count) { |n| "#{name} #{n}" }) # each in its order, none lost
    end
    expect(lines.size).to eq((3 * count) + 1)
    expect(Machines.broken_rows(chat)).to eq([])
    expect(RubyLLM::ActiveRecord::ChatFile.where(chat:).count).to eq((3 * count) + 1)
    expect(Machines.unattached_marked.map(&:key)).to eq([]) # every replaced blob of log.md purged
    expect(Machines.unnamed_keys).to eq([])
  end
end
