# frozen_string_literal: true

# apply_patch through ruby_llm's own Chat (issue #31): a scripted model sends
# a V4A patch as the tool call's JSON argument over the wire, on ruby_llm
# main and 1.16 (see ruby_llm_chat_spec.rb for the pattern).
RSpec.describe 'RubyLLM chats editing with apply_patch', :integration do
  include_context 'in a temporary folder'

  let(:s) { ScriptedOpenAIServer }

  RubyLLMSource.each_version(self) do
    it 'applies a patch the model sends, refusing a wrong hunk first and writing nothing for it' do
      folder = File.join(@tmp, 'app')
      FileUtils.mkdir_p(File.join(folder, 'models'))
      File.write(File.join(folder, 'models/user.rb'), "class User\n  def name\n    'x'\n  end\nend\n")
      wrong = "*** Begin Patch\n*** Update File: models/user.rb\n@@ def name\n-    'y'\n+    'z'\n" \
              "*** Add File: models/account.rb\n+class Account\n+end\n*** End Patch\n"
      right = "*** Begin Patch\n*** Update File: models/user.rb\n@@ def name\n-    'x'\n+    'z'\n" \
              "*** Add File: models/account.rb\n+class Account\n+end\n*** End Patch\n"
      script = [s.tool_calls(['read_file', { path: 'models/user.rb' }]),
                s.tool_calls(['apply_patch', { patch: wrong }]),
                s.tool_calls(['apply_patch', { patch: right }]),
                s.text('Done.')]
      facts = with_server(script) do |server|
        chat = RubyLLM.chat(model: 'gpt-4.1-mini', **RubyLLMSource.chat_options)
                      .with_file_store(folder, tools: %i[read write edit patch])
        answer = chat.ask('Rename the user and add an account model')
        { requests: server.requests, answer: answer.content.to_s }
      end

      results = tool_contents(facts[:requests].last)
      expect(results[1]).to include('Hunk 1 of models/user.rb does not match').and include('Nothing was changed.')
      expect(results[2]).to eq('Updated models/user.rb (1 hunk), added models/account.rb.')
      expect(File.read(File.join(folder, 'models/user.rb'))).to eq("class User\n  def name\n    'z'\n  end\nend\n")
      expect(File.read(File.join(folder, 'models/account.rb'))).to eq("class Account\nend\n")
      tools = facts[:requests].first['tools']
      expect(tools.map { |t| t.dig('function', 'name') }).to include('apply_patch')
      schema = tools.find { |t| t.dig('function', 'name') == 'apply_patch' }.dig('function', 'parameters')
      expect(schema['required']).to eq(['patch'])
      expect(facts[:answer]).to eq('Done.')
    end
  end
end
