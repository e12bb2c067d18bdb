# frozen_string_literal: true

# Converters::PdfText against pdftotext (poppler-utils) and Debian's
# ruby-pdf-reader on the corpus bench/make_pdf_corpus extracts: word recall
# and precision (words as multisets per file, after NFKC and case folding,
# each CJK character a word), scans answered nil, and files per second.
#
#   ruby -Ilib bench/pdf_bench.rb [CORPUS_DIR]
require 'open3'
require 'timeout'
require 'ruby_llm/file_stores/native'

corpus = ARGV[0] || ENV['PDF_CORPUS'] || File.expand_path('~/.cache/ruby_llm-file_stores-native/pdf_corpus')
files = Dir[File.join(corpus, '*.pdf')]
if files.empty?
  system(File.join(__dir__, 'make_pdf_corpus'), exception: true) unless ARGV[0]
  files = Dir[File.join(corpus, '*.pdf')]
end
abort "No PDFs in #{corpus}: run bench/make_pdf_corpus first" if files.empty?
abort 'pdftotext is missing: apt-get install poppler-utils' unless system('which pdftotext > /dev/null')

CJK = /[\p{Han}\p{Hiragana}\p{Katakana}\p{Hangul}]/
def words(text)
  text.scrub.unicode_normalize(:nfkc).downcase(:fold).gsub(CJK) { |c| " #{c} " }.split.tally
end

# How much text pdftotext found: none, stray glyphs, or text.
def kind_of(ref)
  word_chars = ref.scan(/[[:alnum:]]/).size
  return :textless if word_chars.zero?

  word_chars < 8 ? :stray : :text
end

def clock = Process.clock_gettime(Process::CLOCK_MONOTONIC)

def ours(bytes)
  RubyLLM::FileStores::Native.pdf_to_text(bytes, 'bench.pdf')
rescue RubyLLM::FileStore::ConversionError
  :error
end

totals = Hash.new(0)
# By pdftotext's word characters: none (textless), 1-7 (stray glyphs), 8 or
# more (text, as the converter's MIN_WORD_CHARS).
kinds = Hash.new { |h, k| h[k] = Hash.new { |g, answer| g[answer] = [] } }
ours_time = ptt_time = 0.0
files.each do |path|
  bytes = File.binread(path)
  t = clock
  text = Timeout.timeout(30) { ours(bytes) }
  ours_time += clock - t
  t = clock
  # pdftotext takes minutes and gigabytes on some (bomb_giant.pdf): 30 s each at most.
  ref, _err, status = Open3.capture3('timeout', '30', 'pdftotext', '-q', path, '-')
  ptt_time += clock - t
  next if text == :error || !status.success?

  ref = ref.force_encoding('UTF-8').scrub
  kinds[kind_of(ref)][text.nil? ? :nil : :text] << File.basename(path)
  next if text.nil?

  ref_words = words(ref)
  got = words(text.gsub(/^## Page \d+$/, ''))
  common = ref_words.sum { |w, n| [n, got.fetch(w, 0)].min }
  totals[:common] += common
  totals[:ref] += ref_words.values.sum
  totals[:got] += got.values.sum
  totals[:files] += 1
end

# ruby-pdf-reader is slow: the first 60 files, in one Ruby process, timed
# inside it after loading the gem.
sample = files.first(60)
reader = <<~RUBY
  require 'pdf/reader'
  t = Process.clock_gettime(Process::CLOCK_MONOTONIC)
  ARGV.each do |path|
    Timeout.timeout(30) { PDF::Reader.new(path).pages.each(&:text) }
  rescue Exception # a broken file may raise anything, even SystemStackError
    nil
  end
  print Process.clock_gettime(Process::CLOCK_MONOTONIC) - t
RUBY
reader_seconds, status = Open3.capture2('ruby', '-rtimeout', '-e', reader, *sample, err: File::NULL)
unless status.success? && reader_seconds.to_f.positive?
  abort 'ruby-pdf-reader is missing or failed: apt-get install ruby-pdf-reader'
end
reader_rate = sample.size / reader_seconds.to_f
ours_sample = clock
sample.each { |path| ours(File.binread(path)) }
ours_sample_rate = sample.size / (clock - ours_sample)
ours_rate = files.size / ours_time
ptt_rate = files.size / ptt_time

def ratio(value) = value.round(3)

puts "corpus: #{files.size} PDFs in #{corpus}"
recall = totals[:common].fdiv(totals[:ref])
precision = totals[:common].fdiv(totals[:got])
puts "text: recall #{ratio(recall)}, precision #{ratio(precision)} " \
     "over #{totals[:files]} files with text (targets 0.94, 0.97)"
textless = kinds[:textless]
stray = kinds[:stray]
with_text = kinds[:text]
puts "textless (pdftotext finds no word character): #{textless[:nil].size} nil, #{textless[:text].size} text " \
     "(#{textless[:text].first(8).join(', ')})"
puts "stray glyphs (1-7 word characters): #{stray[:nil].size} nil, #{stray[:text].size} text " \
     "(#{stray[:text].first(8).join(', ')})"
puts "with text (8+ word characters): #{with_text[:nil].size} wrongly nil of " \
     "#{with_text[:nil].size + with_text[:text].size} (#{with_text[:nil].first(12).join(', ')})"
puts "speed: PdfText #{ours_rate.round(1)} files/s, pdftotext per file #{ptt_rate.round(1)} files/s " \
     "(#{ratio(ours_rate / ptt_rate)}x)"
puts "speed on the first #{sample.size} files: PdfText #{ours_sample_rate.round(1)} files/s, ruby-pdf-reader " \
     "#{reader_rate.round(1)} files/s in one process (#{(ours_sample_rate / reader_rate).round(1)}x)"
