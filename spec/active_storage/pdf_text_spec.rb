# frozen_string_literal: true

require_relative 'support/active_storage_helper'
require_relative '../ruby_llm/file_store/converters/pdf_fixtures'

RSpec.describe RubyLLM::FileStore::ActiveStorage, 'PDF text' do
  include PdfFixtures

  let(:chat) { Chat.create!(title: 'PDF') }
  let(:store) { store_for(chat) }
  let(:tools) { RubyLLM::FileStore::Tools.for(store).to_h { |tool| [tool.name, tool] } }

  def call_tool(name, **args) = tools.fetch(name).call(args.transform_keys(&:to_s))

  around do |example|
    saved = RubyLLM.config.file_converters.dup
    RubyLLM.config.file_converters['application/pdf'] = [RubyLLM::FileStore::Converters::PdfText]
    example.run
  ensure
    RubyLLM.config.file_converters = saved
  end

  before { store.write('docs/contract.pdf', make_pdf("Termination clause\nninety days notice.")) }

  it 'reads a PDF with store.text and read_file' do
    expect(store.text('docs/contract.pdf')).to eq("## Page 1\n\nTermination clause\nninety days notice.\n")
    expect(call_tool('read_file', path: 'docs/contract.pdf')).to include('ninety days notice.')
  end

  it 'finds the words with search_files once converted locally, as a chat does when it keeps the file' do
    store.convert_locally('docs/contract.pdf')
    expect(call_tool('search_files', pattern: 'ninety')).to eq("docs/contract.pdf:4:ninety days notice.\n")
  end

  it 'hands the PDF itself to read_file when no converter is registered' do
    RubyLLM.config.file_converters.delete('application/pdf')
    expect(call_tool('read_file', path: 'docs/contract.pdf').content_type).to eq('application/pdf')
  end
end
