# frozen_string_literal: true

require 'digest'

# A user's own store, written as the guide's "Writing Your Own Store" shows:
# five methods over a Hash standing in for a bucket. Everything else (find,
# exist?, delete_folder, with_lock, read and text memories) comes from
# RubyLLM::FileStore.
class BucketStore < RubyLLM::FileStore
  def initialize(bucket = {}, prefix = 'chat-1/')
    super()
    @bucket = bucket
    @prefix = prefix
  end

  def list(prefix = nil)
    folder = RubyLLM::FileStore.folder(prefix)
    keys = @bucket.keys.select { |key| key.start_with?(@prefix) }.map { |key| key.delete_prefix(@prefix) }
    keys.select! { |key| key.start_with?("#{folder}/") } unless folder.empty?
    keys.sort.map { |key| self[key] }
  end

  def [](path)
    object = @bucket[@prefix + RubyLLM::FileStore.path(path)]
    object && stored_file(RubyLLM::FileStore.path(path), object)
  end

  def read(path)
    object = @bucket[@prefix + RubyLLM::FileStore.path(path)]
    raise RubyLLM::FileNotFoundError, "#{path} does not exist" unless object

    object[:body].dup
  end

  def write(path, content, content_type: nil)
    path = RubyLLM::FileStore.path(path)
    body = (content.respond_to?(:read) ? content.read : content).b
    type = content_type || RubyLLM::FileStores::Native.content_type_for(path, body)
    object = @bucket[@prefix + path] = { body:, content_type: type, at: Time.now }
    stored_file(path, object)
  end

  def delete(path)
    path = RubyLLM::FileStore.path(path)
    object = @bucket.delete(@prefix + path)
    object && stored_file(path, object)
  end

  private

  def stored_file(path, object)
    RubyLLM::StoredFile.new(path:, byte_size: object[:body].bytesize, content_type: object[:content_type],
                            digest: Digest::SHA256.hexdigest(object[:body]), updated_at: object[:at])
  end
end
