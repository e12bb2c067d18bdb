# frozen_string_literal: true

require_relative 'support/active_storage_helper'
require 'digest'

# Big-file paths of the Active Storage store on small files (a few MB, past
# the 1 MB line-index step, some past the 8 MB text kept in rows): the same
# windows and bytes as the whole-file paths give, from an IO of any kind.
RSpec.describe RubyLLM::FileStore::ActiveStorage, 'streaming' do
  let(:chat) { Chat.create!(title: 'Streams') }
  let(:store) { store_for(chat) }
  let(:text) { (1..900_000).map { |n| "row #{n}\n" }.join } # 10.3 MB: no text in the row
  let(:index_key) { RubyLLM::FileStore::ActiveStorage::Streams::LINE_INDEX }

  def blob_of(path) = RubyLLM::ActiveRecord::ChatFile.find_by(path:).file.blob

  def expected(bytes, offset, limit, max_chars = nil)
    RubyLLM::FileStores::Native.file_line_window(bytes, { offset:, limit:, max_chars: })
  end

  it 'writes a File without text in the row, with a line index, and pages it by ranged downloads' do
    path = File.join(ActiveStorageSpecApp::DIR, 'rows.txt')
    File.binwrite(path, text)
    file = File.open(path, 'rb') { |io| store.write('rows.txt', io) }
    expect(file.digest).to eq(Digest::SHA256.hexdigest(text))
    expect(RubyLLM::ActiveRecord::ChatFile.find_by(path: 'rows.txt').text).to be_nil
    expect(blob_of('rows.txt').metadata[index_key]['total']).to eq(900_000)
    allow(ActiveStorage::Blob.service).to receive(:download).and_call_original
    [[1, 100], [456_789, 20, 50], [899_990, nil], [900_000, 1]].each do |offset, limit, max_chars|
      expect(store.read_lines('rows.txt', offset:, limit:, max_chars:)).to eq(expected(text, offset, limit, max_chars))
    end
    expect(ActiveStorage::Blob.service).not_to have_received(:download)
    expect(store.read_lines('rows.txt', offset: 900_001).to_h).to include(shown: 0, total: 900_000)
    expect(store.read('rows.txt')).to eq(text)
    expect(store.each_chunk('rows.txt').map(&:dup).join).to eq(text)
  end

  it 'streams a blob without an index, keeps the index it made, and reads UTF-16 the same' do
    store.write('rows.txt', text)
    blob = blob_of('rows.txt')
    blob.update_columns(metadata: blob.metadata.except(index_key))
    expect(store.read_lines('rows.txt', offset: 800_000, limit: 3)).to eq(expected(text, 800_000, 3))
    expect(blob.reload.metadata[index_key]['total']).to eq(900_000)
    utf16 = "\xFF\xFE".b + text.encode(Encoding::UTF_16LE).b
    store.write('wide.txt', utf16, content_type: 'text/plain')
    expect(blob_of('wide.txt').metadata[index_key]).to be_nil
    expect(store.read_lines('wide.txt', offset: 899_999, limit: 5)).to eq(expected(utf16, 899_999, 5))
  end

  it 'takes a pipe, an upload and any reader, and keeps small text in the row' do
    reader, writer = IO.pipe
    Thread.new { writer.write(text) && writer.close }
    expect(store.write('piped.txt', reader).digest).to eq(Digest::SHA256.hexdigest(text))
    expect(store.read('piped.txt')).to eq(text)
    upload = Struct.new(:io) { def read(*args) = io.read(*args) } # read(length) only, no rewind
    expect(store.write('small.md', upload.new(StringIO.new("# Small\n"))).byte_size).to eq(8)
    expect(RubyLLM::ActiveRecord::ChatFile.find_by(path: 'small.md').text).to eq("# Small\n")
    expect { store.write('bad.txt', Object.new) }.to raise_error(ArgumentError, /String or an IO/)
  end
end
