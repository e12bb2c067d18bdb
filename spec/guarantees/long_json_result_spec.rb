# frozen_string_literal: true

require_relative 'guarantee_helpers'

# Guarantee: a long JSON tool result is saved without parsing and printing
# it again when it is over LongResults::PRETTY_MAX (1 MB): a real ruby_llm
# chat (RUBY_LLM_SOURCE, see spec/integration/README.md) whose tool returns
# a 60 MB JSON string, run in its own Ruby (spec/scripts/long_json_result.rb),
# saves it as it came and peaks under 250 MB of resident memory (ruby_llm
# alone, sending it whole, peaks near 380 MB).
RSpec.describe 'Guarantee: a long JSON result is saved as it came, in bounded memory', :integration do
  before { skip RubyLLMSource.skip_message unless RubyLLMSource.available? }

  it 'saves a 60 MB JSON string result as it came, peaking under 250 MB' do
    outcome = GuaranteeHelpers.run_script('long_json_result.rb', 'store', 60)
    expect(outcome[:status]).to be_success, outcome[:output][-2000..] || outcome[:output]
    expect(outcome[:path]).to match(%r{\Aresults/export-\h{8}\.json\z})
    expect(outcome.values_at(:saved_same, :saved_bytes)).to eq([true, outcome[:json_bytes]])
    expect(outcome[:sent_chars]).to be < 2_500
    expect(outcome[:peak_mb]).to be < 250
  end
end
