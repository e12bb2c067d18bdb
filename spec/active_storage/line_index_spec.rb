# frozen_string_literal: true

require_relative 'support/active_storage_helper'
require 'digest'

# Guarantee (issue #38, 3): a blob's line index is believed only when the
# store wrote it. The index sits in the blob's metadata, which is not the
# store's alone: Rails' direct uploads take metadata from the browser (the
# store's mark too), and a message's attachment is kept as it is. On a 10 MB
# file of 200,000 numbered lines (no text in its row, so read_file pages it
# through the index), an index changed as an uploader could change it is
# read past: read_file shows lines 150,000-150,002 under their own numbers,
# of 200,000, and never raises. The old build believed every one: offsets
# moved back 71,698 lines showed line 78,302 as line 150,000, `total: 3` hid
# every line past the third, a negative offset raised Errno::EINVAL (Disk) or
# failed the ranged download (S3), and strings raised a comparison error.
RSpec.describe RubyLLM::FileStore::ActiveStorage, 'line index' do
  let(:width) { 51 }
  let(:count) { 200_000 }
  let(:chat) { Chat.create!(title: 'index') }
  let(:store) { store_for(chat) }
  let(:read_file) { tools_for(store).fetch('read_file') }
  let(:key) { RubyLLM::FileStore::ActiveStorage::Streams::LINE_INDEX }

  def line(number) = "#{number.to_s.rjust(6, '0')} #{'x' * (width - 8)}\n"
  def start_of(number) = (number - 1) * width

  def numbered_file
    path = File.join(ActiveStorageSpecApp::DIR, 'numbered.txt')
    File.open(path, 'wb') { |file| (1..count).each_slice(10_000) { |s| file.write(s.map { line(_1) }.join) } }
    path
  end

  def blob_at(path) = RubyLLM::ActiveRecord::ChatFile.find_by!(path:).file_attachment.blob

  def right_window(path)
    "#{line(150_000)}#{line(150_001)}#{line(150_002)}[Lines 150000-150002 of #{count} in #{path}. " \
      'Read on with offset: 150003.]'
  end

  def read(path) = read_file.call('path' => path, 'offset' => 150_000, 'limit' => 3)

  # What an uploader could put in the index, from the store's own.
  def tampered(index, how)
    lines, offsets = index.values_at('lines', 'offsets')
    case how
    when :shifted # each line start moved 71,698 lines back: real line starts, wrong numbers
      kept = lines.each_index.select { |i| lines[i] > 71_698 }
      index.merge('lines' => kept.map { lines[_1] }, 'offsets' => kept.map { start_of(lines[_1] - 71_698) })
    when :total then index.merge('total' => 3)
    when :negative then index.merge('offsets' => offsets.map { _1 - 20_000_000 })
    when :strings then index.merge('lines' => lines.map(&:to_s))
    end
  end

  it 'writes a signed index for the blob, and reads the window by it with ranged downloads' do
    store.write('big.txt', File.open(numbered_file))
    index = blob_at('big.txt').metadata[key]
    expect(index).to include('total' => count, 'signature' => a_kind_of(String))
    service = ActiveStorage::Blob.service
    allow(service).to receive(:download).and_call_original

    expect(read('big.txt')).to eq(right_window('big.txt'))
    expect(service).not_to have_received(:download) # only download_chunk: the index was used
  end

  %i[shifted total negative strings].each do |how|
    it "reads past an index with #{how} entries, showing the right lines, and keeps a good one for the next read" do
      store.write('big.txt', File.open(numbered_file))
      blob = blob_at('big.txt')
      good = blob.metadata[key]
      blob.update_columns(metadata: blob.metadata.merge(key => tampered(good, how)))

      expect(read('big.txt')).to eq(right_window('big.txt'))
      expect(read_file.call('path' => 'big.txt', 'offset' => 199_999)).to eq(
        "#{line(199_999)}#{line(200_000)}[Lines 199999-200000 of #{count} in big.txt.]"
      )
      expect(blob.reload.metadata[key]).to eq(good) # read again, and signed again
    end
  end

  it 'reads past an index a direct upload brought in its metadata, on a kept message attachment' do
    bytes = File.binread(numbered_file)
    forged = { 'lines' => [150_000], 'offsets' => [start_of(78_302)], 'total' => count }
    blob = ActiveStorage::Blob.create_before_direct_upload!(
      filename: 'upload.txt', byte_size: bytes.bytesize, checksum: Digest::MD5.base64digest(bytes),
      content_type: 'text/plain', metadata: { 'ruby_llm_file_store' => true, key => forged }
    )
    blob.upload_without_unfurling(StringIO.new(bytes))
    message = Message.create!(chat:)
    message.attachments.attach(blob)
    store.keep_blob('upload.txt', blob.reload)

    expect(blob.reload.metadata[key]).to eq(forged)
    expect(read('upload.txt')).to eq(right_window('upload.txt'))
  end

  it 'believes no index signed for another blob' do
    store.write('big.txt', File.open(numbered_file))
    store.write('copy.txt', File.open(numbered_file))
    first = blob_at('big.txt')
    second = blob_at('copy.txt')
    moved = tampered(first.metadata[key], :shifted)
    signed = RubyLLM::FileStore::ActiveStorage::LineIndex.signed(first.key, moved)
    second.update_columns(metadata: second.metadata.merge(key => signed))

    expect(read('copy.txt')).to eq(right_window('copy.txt'))
  end
end
