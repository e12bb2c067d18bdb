# frozen_string_literal: true

# The Office fixtures (spec/fixtures/office, made by generate.py there) and
# a way to hand one to the converter.
module OfficeFixtures
  DIR = File.expand_path('../../../fixtures/office', __dir__)

  # What a converter is given: the file's bytes, name and content type.
  File = Struct.new(:content, :filename, :mime_type)

  def fixture(name) = ::File.join(DIR, name)

  def office_file(name, content, mime_type = '') = File.new(content, name, mime_type)

  def convert(name) = RubyLLM::FileStore::Converters::Office.call(office_file(name, ::File.binread(fixture(name))))
end
