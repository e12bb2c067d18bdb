# frozen_string_literal: true

require 'marcel'

# Content types agree with Marcel (Rails' sniffer) on common types, except
# where the guide or the converters need a more telling answer.
RSpec.describe 'Content types', :native do
  def native(name, head = '') = RubyLLM::FileStores::Native.content_type_for(name, head.b)

  common = %w[txt csv tsv json xml html htm css js rb py go java c h cpp sh sql ini log pdf png jpg jpeg gif
              webp svg bmp tiff tif ico heic avif zip gz tar docx xlsx pptx docm xlsm pptm doc xls ppt odt ods
              odp rtf epub mp3 wav mp4 mov webm ogg vtt php pl scala lua hs ics eml parquet yaml less]

  it 'agree with Marcel by name on common types' do
    differences = common.filter_map do |ext|
      ours = native("file.#{ext}")
      marcel = Marcel::MimeType.for(name: "file.#{ext}")
      "#{ext}: ours #{ours}, Marcel #{marcel}" unless ours == marcel
    end
    expect(differences).to eq([])
  end

  it 'differ from Marcel where a more telling type serves the model' do
    expect(native('brief.md')).to eq('text/markdown') # the guide's own example
    expect(native('main.rs')).to eq('text/x-rust')     # Marcel: application/rls-services+xml
    expect(native('subs.srt')).to eq('application/x-subrip')
    expect(native('config.yml')).to eq('text/x-yaml')
  end

  it 'agree with Marcel by signature for images and PDFs without an extension' do
    samples = {
      'png' => "\x89PNG\r\n\x1A\n\x00\x00\x00\rIHDR", 'jpeg' => "\xFF\xD8\xFF\xE0\x00\x10JFIF\x00",
      'gif' => 'GIF89a', 'webp' => "RIFF\x00\x00\x00\x00WEBPVP8 ", 'pdf' => "%PDF-1.7\n%\xE2\xE3"
    }
    samples.each do |kind, head|
      head = head.b
      expect(native('noext', head)).to eq(Marcel::MimeType.for(StringIO.new(head))), kind
    end
  end
end
