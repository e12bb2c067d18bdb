# frozen_string_literal: true

# What every hostile-PDF guarantee script (pdf_limits.rb, pdf_streams.rb,
# pdf_text_limits.rb) does with the crafted file of its case: converts it
# with Converters::PdfText in a thread of its own (a thread's machine stack
# is smaller than the main one's), within a Timeout when the script is
# given one, and prints one JSON line with the result or the error, the
# seconds it took, the peak resident memory (VmHWM, MB) after the file was
# built and at the end, and the file's size. Requiring it limits the
# process's CPU time to +cpu+ seconds (PdfCase.limit_cpu).
$LOAD_PATH.unshift(File.expand_path('../../lib', __dir__))
# As spec_helper: another build's extension (NATIVE_EXTENSION_DIR) first.
ENV['NATIVE_EXTENSION_DIR']&.then { |dir| $LOAD_PATH.unshift(File.expand_path(dir)) }
require 'ruby_llm/file_stores/native'
require 'json'
require 'timeout'

# Runs one crafted PDF through the converter and reports on it.
module PdfCase
  module_function

  # A conversion that spins past +seconds+ of CPU is killed (SIGXCPU) and
  # its case fails.
  def limit_cpu(seconds) = Process.setrlimit(:CPU, seconds)

  def peak_mb = File.read('/proc/self/status')[/VmHWM:\s+(\d+)/, 1].to_i / 1024

  # Converts +bytes+ (the case +name+'s file), within Timeout +limit+
  # seconds when given, and prints the report.
  def run(name, bytes, limit = nil)
    input = RubyLLM::FileStore::Converters::Input.new(content: bytes, filename: "#{name}.pdf",
                                                      mime_type: 'application/pdf', path: "#{name}.pdf")
    built_mb = peak_mb
    started = Process.clock_gettime(Process::CLOCK_MONOTONIC)
    convert = proc { RubyLLM::FileStore::Converters::PdfText.call(input) }
    outcome = Thread.new do
      { result: limit ? Timeout.timeout(limit, &convert) : convert.call }
    rescue RubyLLM::FileStore::ConversionError, Timeout::Error => e
      { error: "#{e.class}: #{e.message}" }
    end.value
    seconds = Process.clock_gettime(Process::CLOCK_MONOTONIC) - started
    puts JSON.generate(outcome.merge(peak_mb:, built_mb:, seconds:, bytes: bytes.bytesize,
                                     pdf_kb: bytes.bytesize >> 10))
  end
end
