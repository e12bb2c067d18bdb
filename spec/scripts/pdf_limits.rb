# frozen_string_literal: true

# Run by spec/guarantees/pdf_limits_spec.rb in a fresh Ruby, one case per
# process: builds a crafted PDF, converts it with Converters::PdfText in a
# thread of its own (a thread's machine stack is smaller than the main
# one's), and prints one JSON line with the result or the error, and the
# process's peak resident memory (VmHWM, MB). The process may use 60 s of
# CPU: a conversion that spins past that is killed (SIGXCPU) and the case
# fails; one that overflows its stack kills the process.
#
#   ruby spec/scripts/pdf_limits.rb objstm_bomb

$LOAD_PATH.unshift(File.expand_path('../../lib', __dir__))
require 'ruby_llm/file_stores/native'
require 'json'
require_relative '../ruby_llm/file_stores/native/converters/pdf_fixtures'

Process.setrlimit(:CPU, 60)
include PdfFixtures # rubocop:disable Style/MixinUsage

def peak_mb = File.read('/proc/self/status')[/VmHWM:\s+(\d+)/, 1].to_i / 1024

BOMB = 512 << 20
TEXT = 'Some text on the page.'
CASES = {
  'deep_objects' => -> { make_pdf(TEXT, extra: ["<< /Deep #{'[' * 100_000} >>"]) },
  'nested_within_limit' => lambda {
    make_pdf(TEXT, extra: ["<< /Deep #{'[' * 63}#{']' * 63} /Dict #{'<< /A ' * 62}1#{' >>' * 62} >>"])
  },
  'objstm_bomb' => -> { make_pdf_with('ObjStm /N 1 /First 4', zeros: BOMB) },
  'xref_bomb' => -> { make_pdf_with_xref_bomb(zeros: BOMB) }
}.freeze

bytes = CASES.fetch(ARGV[0]).call
input = RubyLLM::FileStore::Converters::Input.new(content: bytes, filename: "#{ARGV[0]}.pdf",
                                                  mime_type: 'application/pdf', path: "#{ARGV[0]}.pdf")
outcome = Thread.new do
  { result: RubyLLM::FileStore::Converters::PdfText.call(input) }
rescue RubyLLM::FileStore::ConversionError => e
  { error: e.message }
end.value
puts JSON.generate(outcome.merge(peak_mb:))
