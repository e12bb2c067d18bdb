# frozen_string_literal: true

# Run by spec/guarantees/pdf_streams_spec.rb in a fresh Ruby, one case per
# process: builds a PDF whose content streams are hostile, converts it with
# Converters::PdfText in a thread of its own, and prints one JSON line with
# the result or the error, the seconds it took and the process's peak
# resident memory (VmHWM, MB). The process may use 60 s of CPU: a
# conversion that spins past that is killed (SIGXCPU) and the case fails.
#
#   ruby spec/scripts/pdf_streams.rb operands
#   ruby spec/scripts/pdf_streams.rb operands_listed_15_times 1   # within Timeout.timeout(1)

$LOAD_PATH.unshift(File.expand_path('../../lib', __dir__))
require 'ruby_llm/file_stores/native'
require 'json'
require 'timeout'
require_relative '../ruby_llm/file_store/converters/pdf_stream_fixtures'

Process.setrlimit(:CPU, 60)
include PdfStreamFixtures # rubocop:disable Style/MixinUsage

def peak_mb = File.read('/proc/self/status')[/VmHWM:\s+(\d+)/, 1].to_i / 1024

# 30 M operands with no operator: 60 MB of content, 60 KB deflated.
OPERANDS = 30_000_000
# 64 KB of comment: no token, but 64 KB to copy each time it is read.
COMMENT = "%#{'x' * ((64 << 10) - 2)}\n".freeze
CASES = {
  'operands' => -> { page_pdf(streams: [deflated('0 ', OPERANDS, tail: ' ET')]) },
  'operands_listed_15_times' => -> { page_pdf(streams: [deflated('0 ', OPERANDS)], contents: [0] * 15) },
  'unfiltered_listed_100000_times' => lambda {
    page_pdf(streams: [['', SHOW_TEXT], ['', COMMENT]], contents: [0] + ([1] * 100_000))
  },
  'form_drawn_1000000_times' => lambda {
    page_pdf(streams: [deflated("/Fm0 Do\n", 1_000_000)], xobjects: [['', COMMENT]])
  },
  'stray_euro' => -> { page_pdf(streams: [['', "BT /F1 12 Tf 72 720 Td 5\xE2\x82\xAC Tc (#{TEXT}) Tj ET\n".b]]) },
  # Arrays that nothing uses, which lopdf parses all the same.
  'unused_objstm_array' => -> { unused_objstm_array(OPERANDS) },
  'unused_array' => -> { make_pdf(TEXT, extra: ["[#{'0 ' * 2_000_000}]"]) },
  # 64 MB of `z`, each four zero bytes in ASCII85: 256 MB if decoded whole.
  'ascii85_zeros' => lambda {
    extra, data = deflated('z', 64 << 20, head: '')
    page_pdf(streams: [['', SHOW_TEXT], [extra.sub('/FlateDecode', '[/FlateDecode /ASCII85Decode]'), data]])
  }
}.freeze

bytes = CASES.fetch(ARGV[0]).call
input = RubyLLM::FileStore::Converters::Input.new(content: bytes, filename: "#{ARGV[0]}.pdf",
                                                  mime_type: 'application/pdf', path: "#{ARGV[0]}.pdf")
# A second argument is a Timeout, in seconds, around the conversion.
limit = ARGV[1]&.to_f
built_mb = peak_mb
started = Process.clock_gettime(Process::CLOCK_MONOTONIC)
convert = proc { RubyLLM::FileStore::Converters::PdfText.call(input) }
outcome = Thread.new do
  { result: limit ? Timeout.timeout(limit, &convert) : convert.call }
rescue RubyLLM::FileStore::ConversionError, Timeout::Error => e
  { error: "#{e.class}: #{e.message}" }
end.value
seconds = Process.clock_gettime(Process::CLOCK_MONOTONIC) - started
puts JSON.generate(outcome.merge(peak_mb:, built_mb:, seconds:, pdf_kb: bytes.bytesize >> 10))
