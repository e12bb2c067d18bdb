# frozen_string_literal: true

require 'stringio'
require_relative 'support/active_storage_helper'

RSpec.describe RubyLLM::FileStore::ActiveStorage, 'blobs' do
  let(:chat) { Chat.create!(title: 'Blobs') }
  let(:store) { store_for(chat) }

  it 'leaves no row and no blob when a write fails mid-way' do
    store.write('kept.md', 'kept')
    # The write fails after its blob, its row and the attachment were saved.
    rows = allow_any_instance_of(RubyLLM::FileStore::ActiveStorage::Rows)
    rows.to receive(:attach).and_wrap_original do |attach, *args|
      attach.call(*args)
      raise ActiveRecord::StatementInvalid, 'disk gone'
    end
    expect { store.write('new.md', 'new bytes') }.to raise_error(ActiveRecord::StatementInvalid, /disk gone/)
    expect { store.write('kept.md', 'changed') }.to raise_error(ActiveRecord::StatementInvalid, /disk gone/)
    expect(chat.ruby_llm_chat_files.pluck(:path)).to eq(['kept.md'])
    expect(store.read('kept.md')).to eq('kept')
    expect(blob_count).to eq(1)
    expect(stored_files.size).to eq(1)
  end

  it 'uploads before taking the lock: a reader never sees a row whose file is not there' do
    uploaded_outside = nil
    blobs = allow_any_instance_of(ActiveStorage::Blob)
    blobs.to receive(:upload_without_unfurling).and_wrap_original do |original, *args, **kw|
      uploaded_outside = !ActiveRecord::Base.connection.transaction_open?
      original.call(*args, **kw)
    end
    store.write('a.md', 'a')
    expect(uploaded_outside).to be(true)
  end

  it 'leaves no blob and no file on disk when the chat is destroyed' do
    store.write('notes/plan.md', "# Plan\n")
    store.write('chart.png', "\x89PNG\r\n\x1A\n".b)
    expect(stored_files.size).to eq(2)
    chat.destroy!
    expect(RubyLLM::ActiveRecord::ChatFile.count).to eq(0)
    expect(ActiveStorage::Attachment.count).to eq(0)
    expect(blob_count).to eq(0)
    expect(stored_files).to eq([])
  end

  it "shares one blob between a message's attachment and the chat's file" do
    message = chat.messages.create!
    message.attachments.attach(io: StringIO.new('%PDF-1.7 contract'), filename: 'contract.pdf',
                               content_type: 'application/pdf')
    blob = message.attachments.first.blob
    file = store.keep_blob('contract.pdf', blob)
    expect(file).to have_attributes(path: 'contract.pdf', content_type: 'application/pdf', byte_size: 17,
                                    digest: Digest::SHA256.hexdigest('%PDF-1.7 contract'))
    expect(store.write('copy.pdf', blob).digest).to eq(file.digest) # write takes a blob too
    expect(blob_count).to eq(1)
    expect(stored_files.size).to eq(1)
    expect(store.read('contract.pdf')).to eq('%PDF-1.7 contract')

    store.delete('contract.pdf')
    store.write('copy.pdf', 'replaced')
    expect(message.attachments.first.blob.download).to eq('%PDF-1.7 contract') # the message keeps it
    expect(blob_count).to eq(2)
  end

  it "purges a file's old blob when it is replaced or deleted" do
    store.write('a.md', 'one')
    store.write('a.md', 'two')
    expect([blob_count, stored_files.size]).to eq([1, 1])
    store.delete('a.md')
    expect([blob_count, stored_files.size]).to eq([0, 0])
  end

  it 'writes an IO and refuses a blob that is not saved' do
    store.write('io.csv', StringIO.new("a,b\n"))
    expect(store.read('io.csv')).to eq("a,b\n")
    expect do
      store.keep_blob('x.md', ActiveStorage::Blob.new)
    end.to raise_error(ArgumentError, /saved ActiveStorage::Blob/)
  end
end
