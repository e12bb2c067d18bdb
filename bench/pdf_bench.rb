# frozen_string_literal: true

# Converters::PdfText against pdftotext (poppler-utils) on three corpora: pdf.js's
# test PDFs (bench/make_pdf_corpus), real PDFs from other projects' test suites
# (bench/fetch_pdf_corpus: qpdf, pypdf, py-pdf/sample-files, PDFBox, PDFium),
# and PDFs from repositories the reader was never tuned on
# (bench/fetch_pdf_corpus_more: veraPDF, pdfcpu, PyMuPDF, tabula, ...). For each
# corpus it prints, before (the old build, OLD_LIB, /work/old/lib by default)
# and after (this checkout's lib/): word recall and precision (words as
# multisets per file, after NFKC and case folding, each CJK character a word),
# wrong nils (files pdftotext reads with text where we answer nil), refusals
# (ConversionError), and speed against pdftotext measured side by side in the
# same run. Each build converts in a child process of its own, so both load
# their extension; pdftotext runs once per file, as it is used.
#
#   ruby -Ilib bench/pdf_bench.rb [CORPUS_DIR ...]
#
# Environment: PDF_CORPUS, PDF_CORPUS_EXTRA, PDF_CORPUS_MORE (the three folders), OLD_LIB,
# BENCH_PDF_WORDS=N (print the N files that lose most words, after).
require 'open3'
require 'rbconfig'

CACHE = File.expand_path('~/.cache/ruby_llm-file_stores-native')
CHILD = <<~'RUBY'
  require 'timeout'
  require 'ruby_llm/file_stores/native'
  clock = -> { Process.clock_gettime(Process::CLOCK_MONOTONIC) }
  results = {}
  ARGF.each_line(chomp: true) do |path|
    bytes = File.binread(path)
    started = clock.call
    answer = begin
      Timeout.timeout(30) { RubyLLM::FileStores::Native.pdf_to_text(bytes, 'bench.pdf') }
    rescue Timeout::Error
      :timeout
    rescue StandardError => e
      e.class.name.end_with?('ConversionError') ? :error : :crash
    end
    results[path] = [answer, clock.call - started]
  end
  $stdout.binmode.write(Marshal.dump(results))
RUBY

# Runs the build whose extension is under +lib+ on +files+ in a child process.
def convert_with(lib, files)
  out, status = Open3.capture2(RbConfig.ruby, '-I', lib, '-e', CHILD, stdin_data: files.join("\n"), binmode: true)
  abort "the build in #{lib} failed (#{status})" unless status.success?
  Marshal.load(out) # rubocop:disable Security/MarshalLoad -- our own child's output
end

CJK = /[\p{Han}\p{Hiragana}\p{Katakana}\p{Hangul}]/
def words(text)
  text.scrub.unicode_normalize(:nfkc).downcase(:fold).gsub(CJK) { |c| " #{c} " }.split.tally
end

def clock = Process.clock_gettime(Process::CLOCK_MONOTONIC)

# pdftotext's words for each file, and the time it took; nil where it fails.
def pdftotext(files)
  files.to_h do |path|
    started = clock
    # pdftotext takes minutes and gigabytes on some (bomb_giant.pdf): 30 s each at most.
    ref, _err, status = Open3.capture3('timeout', '30', 'pdftotext', '-q', path, '-')
    [path, [status.success? ? words(ref.force_encoding('UTF-8').scrub) : nil, clock - started]]
  end
end

# Text means 8 or more word characters (the converter's MIN_WORD_CHARS).
def text?(ref) = ref.sum { |word, n| word.scan(/[[:alnum:]]/).size * n } >= 8

# Adds one file's answer against pdftotext's words +ref+ to +stats+.
def score_file(stats, answer, ref)
  stats[:with_text] += 1
  return stats[:wrong_nil] += 1 if answer.nil?
  return unless answer.is_a?(String)

  got = words(answer.gsub(/^## Page \d+$/, ''))
  common = ref.sum { |w, n| [n, got.fetch(w, 0)].min }
  stats[:common] += common
  stats[:ref] += ref.values.sum
  stats[:got] += got.values.sum
  [ref.values.sum - common, got.values.sum - common]
end

def score(results, refs)
  stats = Hash.new(0)
  stats[:losses] = []
  results.each do |path, (answer, seconds)|
    stats[:seconds] += seconds
    stats[answer] += 1 if answer.is_a?(Symbol)
    ref = refs[path][0]
    next if ref.nil? || !text?(ref)

    loss = score_file(stats, answer, ref)
    stats[:losses] << [*loss, File.basename(path)] if loss.is_a?(Array)
  end
  stats
end

def row(label, stats, ptt_seconds, files)
  format('  %-7s recall %.3f  precision %.3f  wrong nil %3d of %3d (%.1f%%)  refused %3d  crashed %d  ' \
         'timed out %d  %6.1f files/s (%.2fx pdftotext)',
         label, stats[:common].fdiv(stats[:ref]), stats[:common].fdiv(stats[:got]), stats[:wrong_nil],
         stats[:with_text], 100.0 * stats[:wrong_nil] / [stats[:with_text], 1].max, stats[:error], stats[:crash],
         stats[:timeout], files / stats[:seconds], ptt_seconds / stats[:seconds])
end

# ruby-pdf-reader is slow: the first 60 files, in one Ruby process, timed
# inside it after loading the gem; nil when it is missing.
READER = <<~'RUBY'
  require 'pdf/reader'
  t = Process.clock_gettime(Process::CLOCK_MONOTONIC)
  ARGV.each do |path|
    Timeout.timeout(30) { PDF::Reader.new(path).pages.each(&:text) }
  rescue Exception # a broken file may raise anything, even SystemStackError
    nil
  end
  print Process.clock_gettime(Process::CLOCK_MONOTONIC) - t
RUBY
def reader_seconds(sample)
  seconds, status = Open3.capture2(RbConfig.ruby, '-rtimeout', '-e', READER, *sample, err: File::NULL)
  status.success? && seconds.to_f.positive? ? seconds.to_f : nil
end

abort 'pdftotext is missing: apt-get install poppler-utils' unless system('which pdftotext > /dev/null')
defaults = [ENV['PDF_CORPUS'] || "#{CACHE}/pdf_corpus", ENV['PDF_CORPUS_EXTRA'] || "#{CACHE}/pdf_corpus_extra",
            ENV['PDF_CORPUS_MORE'] || "#{CACHE}/pdf_corpus_more"]
corpora = ARGV.empty? ? defaults : ARGV
new_lib = File.expand_path('../lib', __dir__)
old_lib = ENV['OLD_LIB'] || '/work/old/lib'
# The two builds on one corpus, and ruby-pdf-reader on its first files.
def bench_corpus(files, builds)
  refs = pdftotext(files)
  ptt_seconds = refs.values.sum { |_, seconds| seconds }
  puts "  pdftotext #{(files.size / ptt_seconds).round(1)} files/s " \
       '(targets: recall 0.95, precision 0.97, wrong nil 1%, speed 1x)'
  builds.filter_map do |label, lib|
    next warn("  #{label}: no build in #{lib}") unless Dir.exist?(lib)

    results = convert_with(lib, files)
    stats = score(results, refs)
    stats[:sample_seconds] = files.first(60).sum { |path| results[path][1] }
    puts row(label, stats, ptt_seconds, files.size)
    stats
  end.last
end

def print_reader(sample, after)
  reader = reader_seconds(sample)
  return puts('  ruby-pdf-reader: missing or failed (apt-get install ruby-pdf-reader)') unless reader

  puts "  ruby-pdf-reader on the first #{sample.size} files: #{(sample.size / reader).round(1)} files/s " \
       "in one process (after: #{(reader / after[:sample_seconds]).round(1)}x faster)"
end

corpora.each do |corpus|
  files = Dir[File.join(corpus, '*.pdf')]
  if files.empty?
    maker = { 'extra' => 'fetch_pdf_corpus', 'more' => 'fetch_pdf_corpus_more' }
            .find { |suffix, _| corpus.end_with?(suffix) }&.last || 'make_pdf_corpus'
    warn "No PDFs in #{corpus}: run bench/#{maker} first"
    next
  end
  puts "corpus #{corpus}: #{files.size} PDFs"
  after = bench_corpus(files, [['before', old_lib], ['after', new_lib]])
  next unless after

  print_reader(files.first(60), after)
  after[:losses].max_by(ENV.fetch('BENCH_PDF_WORDS', '0').to_i) { |lost, _, _| lost }.each do |lost, extra, name|
    puts "    #{name}: #{lost} missed, #{extra} extra"
  end
end
