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

def clock = Process.clock_gettime(Process::CLOCK_MONOTONIC)

def ours(bytes)
  RubyLLM::FileStores::Native.pdf_to_text(bytes, 'bench.pdf')
rescue RubyLLM::FileStore::ConversionError
  :error
end

totals = Hash.new(0)
wrong_nil = []
scans = []
text_for_textless = []
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

  ref_words = words(ref.force_encoding('UTF-8'))
  if text.nil?
    ref_words.sum { |_, n| n } >= 5 ? wrong_nil << File.basename(path) : scans << File.basename(path)
    next
  end
  got = words(text.gsub(/^## Page \d+$/, ''))
  text_for_textless << File.basename(path) if ref_words.sum { |_, n| n } < 5
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
puts "scans: #{scans.size} files answered nil where pdftotext finds under 5 words; " \
     "#{text_for_textless.size} such files answered with text (#{text_for_textless.first(10).join(', ')})"
puts "wrongly nil: #{wrong_nil.size} of #{totals[:files] + wrong_nil.size} files with text " \
     "(#{wrong_nil.first(10).join(', ')})"
puts "speed: PdfText #{ours_rate.round(1)} files/s, pdftotext per file #{ptt_rate.round(1)} files/s " \
     "(#{ratio(ours_rate / ptt_rate)}x)"
puts "speed on the first #{sample.size} files: PdfText #{ours_sample_rate.round(1)} files/s, ruby-pdf-reader " \
     "#{reader_rate.round(1)} files/s in one process (#{(ours_sample_rate / reader_rate).round(1)}x)"
