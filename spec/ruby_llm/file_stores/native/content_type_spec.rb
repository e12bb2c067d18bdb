# frozen_string_literal: true

require 'marcel'

# The gem's content types are its own table, the same on every machine
# whatever Marcel is installed (README, "Content types"). It agrees with
# Marcel 1.0.4 (Rails 7.2's, Debian 13's) on the common types; older Marcels
# differ (1.0.1 on Debian 12 says audio/vnd.wave, audio/vorbis and
# text/x-web-markdown for .wav, .ogg and .md).
RSpec.describe 'Content types', :native do
  def native(name, head = '') = RubyLLM::FileStores::Native.content_type_for(name, head.b)

  # Common types, as Marcel 1.0.4 names them.
  common = {
    'txt' => 'text/plain', 'csv' => 'text/csv', 'tsv' => 'text/tab-separated-values', 'json' => 'application/json',
    'xml' => 'application/xml', 'html' => 'text/html', 'htm' => 'text/html', 'css' => 'text/css',
    'js' => 'application/javascript', 'rb' => 'text/x-ruby', 'py' => 'text/x-python', 'go' => 'text/x-go',
    'java' => 'text/x-java-source', 'c' => 'text/x-c++src', 'h' => 'text/x-c++hdr', 'cpp' => 'text/x-c++src',
    'sh' => 'application/x-sh', 'sql' => 'application/sql', 'ini' => 'text/x-ini', 'log' => 'text/x-log',
    'pdf' => 'application/pdf', 'png' => 'image/png', 'jpg' => 'image/jpeg', 'jpeg' => 'image/jpeg',
    'gif' => 'image/gif', 'webp' => 'image/webp', 'svg' => 'image/svg+xml', 'bmp' => 'image/bmp',
    'tiff' => 'image/tiff', 'tif' => 'image/tiff', 'ico' => 'image/vnd.microsoft.icon', 'heic' => 'image/heic',
    'avif' => 'image/avif', 'zip' => 'application/zip', 'gz' => 'application/gzip', 'tar' => 'application/x-tar',
    'docx' => 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
    'xlsx' => 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    'pptx' => 'application/vnd.openxmlformats-officedocument.presentationml.presentation',
    'docm' => 'application/vnd.ms-word.document.macroenabled.12',
    'xlsm' => 'application/vnd.ms-excel.sheet.macroenabled.12',
    'pptm' => 'application/vnd.ms-powerpoint.presentation.macroenabled.12', 'doc' => 'application/msword',
    'xls' => 'application/vnd.ms-excel', 'ppt' => 'application/vnd.ms-powerpoint',
    'odt' => 'application/vnd.oasis.opendocument.text', 'ods' => 'application/vnd.oasis.opendocument.spreadsheet',
    'odp' => 'application/vnd.oasis.opendocument.presentation', 'rtf' => 'application/rtf',
    'epub' => 'application/epub+zip', 'mp3' => 'audio/mpeg', 'wav' => 'audio/x-wav', 'mp4' => 'video/mp4',
    'mov' => 'video/quicktime', 'webm' => 'video/webm', 'ogg' => 'audio/ogg', 'vtt' => 'text/vtt',
    'php' => 'text/x-php', 'pl' => 'text/x-perl', 'scala' => 'text/x-scala', 'lua' => 'text/x-lua',
    'hs' => 'text/x-haskell', 'ics' => 'text/calendar', 'eml' => 'message/rfc822',
    'parquet' => 'application/x-parquet', 'yaml' => 'text/x-yaml', 'less' => 'text/x-less'
  }.freeze

  it 'are the table on common types, by name' do
    expect(common.to_h { |ext, _| [ext, native("file.#{ext}")] }).to eq(common)
  end

  it 'differ from Marcel where a more telling type serves the model' do
    expect(native('brief.md')).to eq('text/markdown') # the guide's own example
    expect(native('main.rs')).to eq('text/x-rust')     # Marcel: application/rls-services+xml
    expect(native('subs.srt')).to eq('application/x-subrip')
    expect(native('config.yml')).to eq('text/x-yaml')
  end

  it 'agree with the installed Marcel by signature for images and PDFs without an extension' do
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
