# frozen_string_literal: true

require_relative 'guarantee_helpers'

# Guarantee: read_file of a file of many short lines costs memory for the
# lines it shows, not for the file's line count, in every store. Each case
# runs in its own Ruby (spec/scripts/many_lines.rb, many_lines_chat.rb)
# under a 3 GB address-space cap. The old build made a Ruby String of every
# line, holding the GVL: a Memory store with 100 MB of "\n" ran 102 s to
# NoMemoryError at the 3 GB cap ([FATAL] failed to allocate memory without
# one), a 200 MB UTF-16LE file on NativeDir the same, and a real chat that
# grows 1,000 newlines to 200 MB with one edit and reads them died.
RSpec.describe 'Guarantee: a window of many short lines costs the lines shown' do
  def read_ten(mode, megabytes)
    outcome = GuaranteeHelpers.run_script('many_lines.rb', mode, megabytes)
    expect(outcome[:status]).to be_success, outcome[:output][-2000..] || outcome[:output]
    outcome
  end

  it 'reads 10 of the 104,857,600 lines of a Memory store file under 300 MB, in seconds' do
    outcome = read_ten('memory', 100)
    expect(outcome[:result]).to eq("#{"\n" * 10}[Lines 1-10 of 104857600 in lines.txt. Read on with offset: 11.]")
    expect(outcome[:peak_mb]).to be < 300
    expect(outcome[:seconds]).to be < 15
  end

  it 'reads 10 lines of a 200 MB UTF-16LE file of empty lines on NativeDir under 100 MB, in seconds' do
    outcome = read_ten('native_utf16', 200)
    expect(outcome[:result]).to eq("#{"\n" * 10}[Lines 1-10 of 104857600 in lines.txt. Read on with offset: 11.]")
    expect(outcome[:peak_mb]).to be < 100
    expect(outcome[:seconds]).to be < 15
  end

  context 'through a real chat', :integration do
    RubyLLMSource.each_version(self) do
      it 'keeps the process alive when the model grows 1,000 newlines to 200 MB with one edit and reads 10' do
        outcome = GuaranteeHelpers.run_script('many_lines_chat.rb', ruby_llm_version, 200)
        expect(outcome[:status]).to be_success, outcome[:output][-2000..] || outcome[:output]
        expect(outcome[:answer]).to eq('Read it.')
        expect(outcome[:bytes]).to eq(1000 * ((200 << 20) / 1000))
        expect(outcome[:read]).to start_with("\n" * 10).and include('[Lines 1-10 of 209715000 in lines.txt.')
        expect(outcome[:peak_mb]).to be < 800
        expect(outcome[:seconds]).to be < 60
      end
    end
  end
end
