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

  # Guarantee (issue #41): with history, the write uploads before it takes
  # the chat's lock too, and records its version under it. The old build
  # uploaded inside the history's lock: the second writer waited out the
  # slow upload (PostgreSQL) or gave up with "database is locked" (SQLite).
  it 'with history, lets a second writer of the chat save while a write uploads, each with its version' do
    uploading = Queue.new
    finish = Queue.new
    allow(ActiveStorage::Blob.service).to receive(:upload).and_wrap_original do |upload, *args, **options|
      if Thread.current[:slow_upload]
        uploading << !ActiveRecord::Base.connection.transaction_open?
        finish.pop
      end
      upload.call(*args, **options)
    end
    slow = Thread.new do
      Thread.current[:slow_upload] = true
      ActiveRecord::Base.connection_pool.with_connection { store_for(chat, history: true).write('slow.md', "slow\n") }
    end
    outside = uploading.pop
    begin
      second = Thread.new do
        ActiveRecord::Base.connection_pool.with_connection do
          store_for(Chat.find(chat.id), history: true).write('quick.md', "quick\n")
        end
      end
      second.report_on_exception = false
      # A bound on the failure only: the second write needs no wait at all.
      done = second.join(60)
    ensure
      finish << true
      slow.join
    end

    expect(outside).to be(true)
    expect(done).not_to be_nil
    expect(second.value.path).to eq('quick.md')
    history = store_for(chat, history: true)
    expect(%w[slow.md quick.md].map { |path| history.versions(path).map(&:change) }).to eq([%i[created], %i[created]])
    expect(history.read('slow.md')).to eq("slow\n")
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
