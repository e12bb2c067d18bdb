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

require_relative 'pdf_case'
require_relative '../ruby_llm/file_store/converters/pdf_stream_fixtures'

PdfCase.limit_cpu(60)
include PdfStreamFixtures # rubocop:disable Style/MixinUsage

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
  # Arrays that nothing uses, which lopdf parses all the same.
  'unused_objstm_array' => -> { unused_objstm_array(OPERANDS) },
  'unused_array' => -> { make_pdf(TEXT, extra: ["[#{'0 ' * 2_000_000}]"]) },
  # 64 MB of `z`, each four zero bytes in ASCII85: 256 MB if decoded whole.
  'ascii85_zeros' => lambda {
    extra, data = deflated('z', 64 << 20, head: '')
    page_pdf(streams: [['', SHOW_TEXT], [extra.sub('/FlateDecode', '[/FlateDecode /ASCII85Decode]'), data]])
  }
}.freeze

# A second argument is a Timeout, in seconds, around the conversion.
PdfCase.run(ARGV[0], CASES.fetch(ARGV[0]).call, ARGV[1]&.to_f)
