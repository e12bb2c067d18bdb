# frozen_string_literal: true

# For specs that need something bin/setup installs (bubblewrap, python3, rg):
# where it is missing, the spec skips on a developer's machine, saying what
# to install, and fails in CI (CI=true), where setup promised it.
module Prerequisites
  module_function

  def ci? = ENV['CI'] == 'true'

  # Called in an example or a hook (+context+ is its self): raises in CI,
  # else skips with +message+.
  def missing(context, message)
    raise "#{message} (CI=true: bin/setup installs what this needs, so it must not skip)" if ci?

    context.skip(message)
  end

  # For specs that call the binding's test-only entry points
  # (Native.panic_for_tests), which only the build of `rake compile` has
  # (the test-hooks feature), never the one users install.
  def test_hooks(context)
    return if RubyLLM::FileStores::Native.respond_to?(:panic_for_tests)

    missing(context, 'the extension was built without the test-hooks feature: build it with rake compile')
  end
end
