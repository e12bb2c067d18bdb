# frozen_string_literal: true

# The guide's story, one step per process, run by the example app's spec as
# `bin/rails runner review_story.rb STEP ...` in the app (production mode).
# Each step prints one JSON line of what it saw, last.
#
#   upload CHAT_FILE PDF...   a ContractReviewer chat, the PDFs as blobs, and
#                             ReviewJob with the first question and both blobs
#   ask CHAT_FILE QUESTION    ReviewJob with the next question and no blobs
#   load CHAT_FILE            the chat loaded again: its files, the notes and
#                             the extracted text
require 'json'

step, chat_file, *rest = ARGV
facts = { env: Rails.env, eager_load: Rails.application.config.eager_load,
          # Loaded at boot (eager_load), not waiting for an autoload.
          reviewer_loaded: Object.const_defined?(:ContractReviewer, false) && Object.autoload?(:ContractReviewer).nil? }

case step
when 'upload'
  question, *pdfs = rest
  chat = ContractReviewer.create!
  File.write(chat_file, chat.id.to_s)
  blobs = pdfs.map do |pdf|
    File.open(pdf, 'rb') do |io|
      ActiveStorage::Blob.create_and_upload!(io:, filename: File.basename(pdf), content_type: 'application/pdf')
    end
  end
  ReviewJob.perform_now(chat.id, question, blobs.map(&:id))
  facts[:chat_class] = chat.class.name
when 'ask'
  ReviewJob.perform_now(Integer(File.read(chat_file)), rest.first, [])
when 'load'
  chat = ContractReviewer.find(Integer(File.read(chat_file)))
  store = chat.file_store
  facts.merge!(store: store.class.name, paths: store.list.map(&:path),
               notes: store.read('notes/contract-v2.md').force_encoding(Encoding::UTF_8),
               text: store.text('contract-v2.pdf'))
end
puts JSON.generate(facts)
