# frozen_string_literal: true

require 'securerandom'

# The hostile paths of hostile_paths_spec.rb, and the operations each goes
# through.
module HostilePathTable
  SECRET = "CANARY-#{SecureRandom.hex(8)}".freeze

  # Refused by RubyLLM::FileStore.path and .folder, whatever the store.
  INVALID = [
    '..', '../', '../outside/canary.txt', '../../../../../../etc/hostname', 'a/../../outside/canary.txt',
    'a/..', 'a/b/..', './..', '.././outside', 'x/../y', '..//outside/canary.txt', 'a/./../..',
    '/', '//outside', '/tmp', # absolute (the store's own absolute path is added by the spec)
    "canary.txt\0", "\0", "a\0/../b", "..\0/outside",
    '..\\outside\\canary.txt', 'a\\b', '\\\\server\\share', 'C:\\Windows',
    "a\nb", "a\rb", "\e[31mred", "tab\there",
    'x' * 256, "#{'é' * 128}.md", "#{'a/' * 2100}f", 'abcdefgh/' * 500,
    "\xC0\xAE\xC0\xAE/outside/canary.txt".b, "\xFF\xFE".b # overlong UTF-8 dots; not UTF-8
  ].freeze

  # Accepted as names of their own: they must name files inside the store.
  # (Names starting with a dot are hidden, and a folder store refuses them.)
  LITERAL = [
    '~/canary.txt', '~root/x', '~~', '$HOME/canary.txt', '%2e%2e/outside/canary.txt',
    '%2e%2e%2foutside%2fcanary.txt', '..%2foutside', '%252e%252e/x', '...', '..../x', 'a..b', '..a',
    "\u2024\u2024/outside/canary.txt", "\uFF0E\uFF0E/outside/canary.txt", "..\u2215outside\u2215canary.txt",
    "..\u2044outside", "\u2025/canary.txt", "\u200B../canary.txt", "\u202Etxt.exe", "caf\u00e9.md",
    "cafe\u0301.md", "\uFF43anary.txt", 'x' * 255, "#{"#{'d' * 200}/" * 19}f.txt", 'file:..', 'a/b c/d'
  ].freeze

  # Through links in the store: to the outside folder and to the canary file.
  THROUGH_LINKS = ['linked/canary.txt', 'link.txt', 'linked', 'linked/new.txt', 'linked/sub/new.txt'].freeze

  # What a refusal says: why, in words the model acts on.
  CLEAR = Regexp.union('not a valid file path', 'symbolic link', 'does not exist', 'is a folder',
                       'goes through a file', 'must be a String', 'not UTF-8', 'not valid UTF-8',
                       'must be a string', 'is required', 'There is no folder', 'no text', 'Read it with read_file')

  # Operations that take a folder, where nil means the whole store.
  FOLDER_OPS = %w[list delete_folder list_files search_files].freeze

  module_function

  def store_operations(store, path)
    {
      'list' => -> { store.list(path) }, '[]' => -> { store[path] }, 'exist?' => -> { store.exist?(path) },
      'find' => -> { store.find(path) }, 'read' => -> { store.read(path) }, 'text' => -> { store.text(path) },
      'write' => -> { store.write(path, "written #{path.inspect}") }, 'delete' => -> { store.delete(path) },
      'delete_folder' => -> { store.delete_folder(path) }
    }
  end

  def tool_operations(path)
    {
      'write_file' => ['write_file', { 'path' => path, 'content' => "old #{SECRET.reverse}" }],
      'read_file' => ['read_file', { 'path' => path }],
      'edit_file' => ['edit_file', { 'path' => path, 'old_text' => 'old', 'new_text' => 'new' }],
      'edit_file edits' => ['edit_file', { 'edits' => [{ 'path' => path, 'old_text' => 'new', 'new_text' => 'x' }] }],
      'list_files' => ['list_files', { 'path' => path }],
      'list_files glob' => ['list_files', { 'glob' => path.to_s }],
      'search_files' => ['search_files', { 'pattern' => 'CANARY', 'path' => path }],
      'search_files glob' => ['search_files', { 'pattern' => 'CANARY', 'glob' => path.to_s }],
      'delete_file' => ['delete_file', { 'path' => path }]
    }
  end

  # Every store method and every tool, on +path+: [label, outcome] pairs,
  # where the outcome is [:ok, value], [:refused, message] or [:raised, error].
  def every_operation(store, path)
    tools = RubyLLM::FileStore::Tools.for(store, tools: %i[read write edit delete]).to_h { |t| [t.name, t] }
    from_store = store_operations(store, path).map { |label, op| [label, outcome(&op)] }
    from_tools = tool_operations(path).map do |label, (name, args)|
      kind, value = outcome { tools.fetch(name).call(args) }
      [label, value.is_a?(Hash) ? [:refused, value[:error]] : [kind, value]]
    end
    from_store + from_tools
  end

  def outcome
    [:ok, yield]
  rescue ArgumentError, RubyLLM::FileNotFoundError, RubyLLM::FileStore::ConversionError, RubyLLM::FileExistsError => e
    [:refused, e.message]
  rescue StandardError => e
    [:raised, e]
  end

  # What a result shows: a file's bytes, or the value itself.
  def show(value) = value.respond_to?(:content) ? value.content.to_s : value.inspect
end
