# frozen_string_literal: true

# A signal whose trap raises nothing interrupts TextSearch#feed without the
# GVL: the native call stops, Ruby runs the trap, and the call starts again.
# It must go on from the texts the report already took, so no file is shown
# twice and none is lost.
RSpec.describe 'TextSearch#feed interrupted by signal traps', :native do
  let(:texts) do
    Array.new(3000) do |i|
      ["notes/n#{format('%05d', i)}.md", "#{"filler line\n" * (i % 200)}hit #{i}\nhit again #{i}\n".freeze]
    end.to_h
  end
  let(:request) do
    { pattern: 'hit', case_sensitive: false, context: 0, files_only: false, max_matches: nil, max_chars: nil,
      timeout: 60.0 }
  end

  def search_all
    search = RubyLLM::FileStores::Native::TextSearch.start(request)
    search.feed(texts)
    search.finish.text
  end

  it 'gives the same output as an undisturbed search, each file once' do
    expected = search_all
    expect(expected.lines.size).to eq(6000)
    traps = 0
    previous = Signal.trap('USR2') { traps += 1 }
    begin
      sender = Thread.new do
        loop do
          Process.kill('USR2', Process.pid)
          sleep 0.0005
        end
      end
      outputs = Array.new(5) { search_all }
    ensure
      sender&.kill&.join
      Signal.trap('USR2', previous || 'DEFAULT')
    end
    expect(traps).to be_positive
    outputs.each { |output| expect(output).to eq(expected) }
  end
end
