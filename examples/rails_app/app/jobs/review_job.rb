# app/jobs/review_job.rb
class ReviewJob < ApplicationJob
  def perform(chat_id, question, blob_ids)
    chat = ContractReviewer.find(chat_id)
    chat.ask question, with: ActiveStorage::Blob.find(blob_ids)
  end
end
