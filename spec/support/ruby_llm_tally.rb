# frozen_string_literal: true

# Counts the examples run against each ruby_llm line (tagged ruby_llm: VERSION
# by RubyLLMSource.each_version), so a run's log shows how many ran on 1.16
# and main, and CI can tell that none were left out.
module RubyLLMTally
  @counts = Hash.new { |hash, version| hash[version] = Hash.new(0) }

  module_function

  def record(example)
    version = example.metadata[:ruby_llm]
    return unless version.is_a?(String)

    @counts[version][outcome(example)] += 1
  end

  def outcome(example)
    return :failed if example.exception
    return :pending if example.skipped? || example.pending?

    :passed
  end

  # One line per line of ruby_llm that ran, or nil when none did.
  def summary
    return if @counts.empty?

    @counts.sort.map do |version, count|
      "ruby_llm #{version}: #{count.values.sum} examples, #{count[:passed]} passed, " \
        "#{count[:failed]} failed, #{count[:pending]} pending"
    end.join("\n")
  end
end
