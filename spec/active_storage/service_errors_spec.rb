# frozen_string_literal: true

require_relative 'support/active_storage_helper'
require_relative 'support/fault_proxy'

# Guarantee (issue #38, 4): an error from inside the storage service (an
# outage, a 500, a reset, a broken disk) answers { error: } saying the file
# store could not be reached and to try again, and leaves no row, blob or
# object behind. On S3, through FaultProxy in front of the local server
# (bin/test-active-storage's S3 runs); on Disk, with the service's folder
# broken; for GCS, Azure and Mirror by their errors' names and where they
# are raised. The old build raised Aws::S3::Errors::InternalError and
# Seahorse::Client::NetworkingError out of write_file and read_file, and
# Errno::ENOTDIR on Disk.
RSpec.describe RubyLLM::FileStore::ActiveStorage, 'when the storage service fails' do
  let(:chat) { Chat.create!(title: 'faults') }
  let(:store) { store_for(chat) }
  let(:tools) { tools_for(store) }
  let(:unreachable) { /\AThe file store could not be reached: its storage service failed \(.+\)\. Try again/ }
  let(:latin1) { "caf\xE9 au lait\n".b } # no text in its row: read_file downloads it

  def write(path, content) = tools.fetch('write_file').call('path' => path, 'content' => content)
  def read(path) = tools.fetch('read_file').call('path' => path)

  def nothing_left
    { rows: RubyLLM::ActiveRecord::ChatFile.count, blobs: blob_count, stored: stored_files }
  end

  context 'on S3 behind a proxy that fails' do
    include_context 'S3 behind a fault proxy'

    let(:proxy) { @proxy }

    { error: /Aws::S3::Errors::/, reset: /Seahorse::Client::NetworkingError/ }.each do |fault, name|
      it "answers write_file and edit_file whose PUT meets a #{fault} with { error: }, leaving nothing" do
        proxy.fault(fault, methods: %w[PUT])
        answer = write('notes.txt', "# Notes\n")

        expect(answer).to match(error: a_string_matching(unreachable).and(matching(name)))
        expect(proxy.seen.map(&:first)).to include('PUT')
        expect(nothing_left).to eq(rows: 0, blobs: 0, stored: [])
        proxy.fault(:pass)
        expect(write('notes.txt', "# Notes\n")).to start_with('Created notes.txt')
        expect(read('notes.txt')).to include('# Notes')
        proxy.fault(fault, methods: %w[PUT])
        expect(tools.fetch('edit_file').call('path' => 'notes.txt', 'old_text' => 'Notes', 'new_text' => 'Plan'))
          .to match(error: a_string_matching(unreachable))
        expect(store.read('notes.txt')).to eq("# Notes\n")
        expect([blob_count, stored_files.size]).to eq([1, 1])
      end

      it "answers read_file whose GET meets a #{fault} with { error: }, and reads once it answers" do
        store.write('menu.txt', latin1)
        proxy.fault(fault, methods: %w[GET HEAD])

        expect(read('menu.txt')).to match(error: a_string_matching(unreachable).and(matching(name)))
        proxy.fault(:pass)
        expect(read('menu.txt')).to include('au lait')
      end
    end
  end

  context 'on Disk with its folder broken' do
    before { skip 'on the Disk service only' if ActiveStorageSpecApp.s3? }

    let(:root) { ActiveStorage::Blob.service.root }

    it 'answers write_file with { error: } when the folder cannot be made, leaving nothing' do
      FileUtils.rm_rf(root)
      File.write(root, 'not a folder')

      expect(write('notes.txt', "# Notes\n")).to match(error: a_string_matching(unreachable).and(matching(/Errno::/)))
      expect(nothing_left).to include(rows: 0, blobs: 0)
    ensure
      FileUtils.rm_f(root)
    end

    it 'answers read_file with { error: } when the file cannot be opened' do
      store.write('menu.txt', latin1)
      key = ActiveStorage::Blob.last.key
      folder = File.dirname(ActiveStorage::Blob.service.path_for(key))
      FileUtils.rm_rf(folder)
      File.write(folder, 'not a folder')

      expect(read('menu.txt')).to match(error: a_string_matching(unreachable).and(matching(/Errno::ENOTDIR/)))
    end
  end

  describe 'Tools::ServiceError' do
    let(:described_class) { RubyLLM::FileStore::Tools::ServiceError }

    def named(name, parent = StandardError) = Class.new(parent) { define_singleton_method(:name) { name } }

    it "knows GCS's and Azure's errors, and S3's, by name, without their gems" do
      %w[Google::Cloud::UnavailableError Google::Apis::ServerError Azure::Core::Http::HTTPError
         Aws::S3::Errors::SlowDown Seahorse::Client::NetworkingError].each do |name|
        expect(described_class.match?(named(name).new('down'))).to be(true), name
      end
      child = Class.new(named('Google::Cloud::Error')).new('down')
      expect(described_class.match?(child)).to be(true)
    end

    it 'knows I/O errors raised inside a service (Disk, and Mirror over it), not those of a block it was given' do
      require 'active_storage/service/disk_service'
      require 'active_storage/service/mirror_service'
      primary = ActiveStorage::Service::DiskService.new(root: File.join(ActiveStorageSpecApp::DIR, 'file-root'))
      File.write(primary.root, 'not a folder')
      # A mirror of its own: Rails 8.1's MirrorService makes a thread pool as large as its mirrors.
      mirror_root = Dir.mktmpdir('mirror')
      mirror = ActiveStorage::Service::MirrorService.new(
        primary:, mirrors: [ActiveStorage::Service::DiskService.new(root: mirror_root)]
      )
      [primary, mirror].each do |service|
        error = begin
          service.upload('key-one', StringIO.new('x'))
        rescue SystemCallError => e
          e
        end
        expect(error).to be_a(SystemCallError)
        expect(described_class.match?(error)).to be(true), service.class.name
      end
      expect(described_class.match?(Errno::ENOSPC.new)).to be(false) # raised nowhere
      expect(described_class.match?(NoMethodError.new('x'))).to be(false)
    ensure
      FileUtils.rm_f(primary.root)
      FileUtils.rm_rf(mirror_root) if mirror_root
    end
  end
end
