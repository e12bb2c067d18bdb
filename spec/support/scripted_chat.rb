# frozen_string_literal: true

# What the examples that drive a real ruby_llm chat share: RubyLLMSource.each_version
# includes it in each context it makes, so an example runs a script with
# with_server and reads what went over the wire. A group overrides a method
# by defining its own (the Active Storage specs' prepare_child loads their models).
module ScriptedChat
  # Runs +script+ against a chat in a ruby_llm child (RubyLLMSource.run); the
  # block gets the server and returns what the example checks.
  # A named block: an anonymous & used inside a block is a SyntaxError on Ruby 3.3+.
  def with_server(script, &block) # rubocop:disable Naming/BlockForwarding
    RubyLLMSource.run(ruby_llm_version) do
      prepare_child
      RubyLLMSource.with_scripted_server(script, &block) # rubocop:disable Naming/BlockForwarding
    end
  end

  # Runs in the child before the server starts.
  def prepare_child; end

  def new_chat = RubyLLM.chat(model: 'gpt-4.1-mini', **RubyLLMSource.chat_options)

  # The contents of a recorded request's messages of one role.
  def user_contents(request) = contents_of(request, 'user')
  def tool_contents(request) = contents_of(request, 'tool')

  def contents_of(request, role) = request['messages'].select { |m| m['role'] == role }.map { |m| m['content'] }
end
