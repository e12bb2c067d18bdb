# app/agents/contract_reviewer.rb
class ContractReviewer < ApplicationAgent
  instructions "You review contracts. Keep a summary of each one in notes/."
  file_store
end
