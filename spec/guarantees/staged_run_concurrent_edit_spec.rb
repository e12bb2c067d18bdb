# frozen_string_literal: true

require_relative 'staged_run_gate'

# Guarantee (issue #26, 3): a staged run never writes its copy back over an
# edit made during the run. The old build wrote every changed file back
# unconditionally: the edit that edit_file had answered as done was gone.
RSpec.describe 'Guarantee: a staged run never overwrites a concurrent edit', :native do
  include_context 'with code execution'

  let(:store) { RubyLLM::FileStore::Memory.new }

  it_behaves_like 'a staged run that keeps concurrent edits'
end

# The same through a real ruby_llm chat (RUBY_LLM_SOURCE, see
# spec/integration/README.md): the model's run_code call waits while another
# request edits the file; the run's tool result names it as not saved.
RSpec.describe 'Guarantee: a staged run in a chat never overwrites a concurrent edit', :integration do
  include_context 'with code execution'

  RubyLLMSource.each_version(self) do
    let(:s) { ScriptedOpenAIServer }

    it 'keeps the edit and tells the model its version was not saved' do
      gate = StagedRunGate.new(@tmp)
      code = "#{gate.code}echo '- from the run' >> plan.md\necho done\n"
      script = [s.tool_calls(['run_code', { language: 'shell', code:, files: ['plan.md'] }]), s.text('Ran.')]
      facts = RubyLLMSource.run(ruby_llm_version) do
        RubyLLMSource.with_scripted_server(script) do |server|
          store = RubyLLM::FileStore::Memory.new
          store.write('plan.md', "# Plan\n- one\n")
          chat = RubyLLM.chat(model: 'gpt-4.1-mini', **RubyLLMSource.chat_options).with_file_store(store)
                        .with_code_execution(python: false, ruby: false, shell: true, mounts: { 'gate' => gate.dir },
                                             **CodeExecutionHelper::FAST)
          asked = Thread.new { chat.ask('Add a line to the plan').content }
          gate.wait_started
          tools = RubyLLM::FileStore::Tools.for(store, tools: %i[read edit]).to_h { |tool| [tool.name, tool] }
          tools['read_file'].call('path' => 'plan.md')
          edited = tools['edit_file'].call('path' => 'plan.md', 'old_text' => '- one', 'new_text' => '- one, edited')
          gate.go
          answer = asked.join(CodeExecutionHelper::FAST[:timeout] + StagedRunGate::WAIT)&.value
          { answer:, edited:, plan: store.read('plan.md'), result: server.requests.last['messages'].last['content'] }
        end
      end
      gate.close

      expect(facts).to include(answer: 'Ran.', edited: 'Edited plan.md (1 replacement).',
                               plan: "# Plan\n- one, edited\n")
      expect(facts[:result]).to include('unsaved_files', 'plan.md: changed in the files while the code ran')
    end
  end
end
