# frozen_string_literal: true

# A process of the mounts guarantee: `ruby mounts_worker.rb CHAT_ID DISK
# PROCESS SECONDS GO REPORT` seeds its tokens, says it is ready
# (GO.<pid>.ready), waits for the file GO, churns (MountsChurn), then writes
# what it did and what its Memory store holds to REPORT as JSON.
require_relative 'rails_app'
require_relative 'mounts_churn'

chat_id, disk, process, seconds, go, report = ARGV
churn = MountsChurn.new(chat_id: Integer(chat_id), disk:, process: Integer(process), seconds: Float(seconds))
churn.seed
File.write("#{go}.#{Process.pid}.ready", '')
sleep 0.01 until File.exist?(go)
File.write(report, JSON.generate(churn.run))
