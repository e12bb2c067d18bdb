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
#   ruby spec/scripts/pdf_limits.rb many_objects 1   # within Timeout.timeout(1)

require_relative 'pdf_case'
require_relative '../ruby_llm/file_store/converters/pdf_fixtures'

PdfCase.limit_cpu(60)
include PdfFixtures # rubocop:disable Style/MixinUsage

BOMB = 512 << 20
TEXT = 'Some text on the page.'
CASES = {
  'deep_objects' => -> { make_pdf(TEXT, extra: ["<< /Deep #{'[' * 100_000} >>"]) },
  'objstm_bomb' => -> { make_pdf_with('ObjStm /N 1 /First 4', zeros: BOMB) },
  'xref_bomb' => -> { make_pdf_with_xref_bomb(zeros: BOMB) },
  # The type out of sight of a look back from `stream`: behind a string
  # holding `stream` and `obj`, or 80 KB before it.
  'xref_bomb_hidden_type' => -> { make_pdf_with_xref_bomb(zeros: BOMB, more: '/T (stream) /U (9 0 obj) ') },
  'xref_bomb_untyped' => -> { make_pdf_with_xref_bomb(zeros: BOMB).sub('/Type /XRef ', '') },
  'xref_bomb_long_dictionary' => -> { make_pdf_with_xref_bomb(zeros: BOMB, more: "/Pad [#{'0 ' * 40_000}] ") },
  # 300,000 `stream` keywords in 2 MB: each looked back over 64 KB.
  'stream_keywords' => -> { "%PDF-1.4\n#{'stream ' * 300_000}\n%%EOF\n" },
  # Encrypted (empty password): the object stream is ciphertext until the
  # file is decrypted, so no scan before loading can see inside it.
  'encrypted_deep_objstm' => -> { make_encrypted_pdf_with_objstm("7 0 #{'[' * 100_000}") },
  'encrypted_objstm_bomb' => -> { make_encrypted_pdf_with_objstm('7 0 [1]', zeros: BOMB) },
  # The trailer's key spelled with an escape, which lopdf reads as /Encrypt.
  'encrypted_escaped_key_deep' => lambda {
    make_encrypted_pdf_with_objstm("7 0 #{'[' * 100_000}").sub('/Encrypt ', '/Encr#79pt ')
  },
  'encrypted_escaped_key_bomb' => lambda {
    make_encrypted_pdf_with_objstm('7 0 [1]', zeros: BOMB).sub('/Encrypt ', '/Encr#79pt ')
  },
  # 300 MB, past the 256 MB a file may hold: refused by its size.
  'oversized' => -> { "%PDF-1.4\n#{' ' * (300 << 20)}\n%%EOF\n" },
  'many_objects' => -> { make_pdf(TEXT, extra: Array.new(200_000) { '[1 2 3 (abc) /Name << /K 1 >>]' }) },
  # 64 MB of padding first, so lopdf's rescan before each object is long.
  'objects_after_padding' => lambda {
    make_pdf(TEXT, extra: ["<< /Length #{64 << 20} >>\nstream\n#{'x' * (64 << 20)}\nendstream"] +
                          Array.new(20_000) { '[1 2 3]' })
  }
}.freeze

# A second argument is a Timeout, in seconds, around the conversion.
PdfCase.run(ARGV[0], CASES.fetch(ARGV[0]).call, ARGV[1]&.to_f)
