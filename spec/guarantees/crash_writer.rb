# frozen_string_literal: true

require 'stringio'

# The child process of crash_safety_spec.rb: changes files for ever,
# alternating NativeDir#write (of a String, or of an IO in chunks) and an
# edit_file that replaces a file's header and body in one call, and says
# on a pipe which version of which file it starts ("S path version") and
# finishes ("D path version").
class CrashWriter
  FILES = %w[notes/a.md notes/b.md c.txt].freeze

  # The bytes of version +version+ of +file+: a header naming it and a body
  # from about 200 bytes to 600 KB, so that kills land mid-write.
  def self.content(file, version)
    lines = [16, 4000, 48_000][version % 3] + (version % 7)
    "#{file} v#{version}\n#{file}:#{version}:#{"body line #{version}\n" * lines}"
  end

  def self.header(file, version) = content(file, version)[/\A.*\n/]
  def self.body(file, version) = content(file, version).sub(/\A.*\n/, '')

  def initialize(root, versions, out)
    @store = RubyLLM::NativeDir.new(root)
    @tools = RubyLLM::FileStore::Tools.for(@store).to_h { |tool| [tool.name, tool] }
    @versions = versions.dup
    @out = out
  end

  def run
    loop do
      FILES.each_with_index do |file, k|
        version = @versions[file] + 1
        @out.syswrite("S #{file} #{version}\n")
        (version + k).even? ? write(file, version) : edit(file, version)
        @out.syswrite("D #{file} #{version}\n")
        @versions[file] = version
      end
    end
  end

  private

  # Writes of even versions are of an IO that gives 64 KB at a time, so a
  # kill lands between the chunks of a streamed write too.
  def write(file, version)
    content = self.class.content(file, version)
    return @store.write(file, content) if version.odd?

    io = StringIO.new(content)
    def io.read(length = nil, buffer = nil) = super(length && [length, 65_536].min, buffer)
    @store.write(file, io)
  end

  def edit(file, version)
    old = version - 1
    @tools['read_file'].call('path' => file)
    result = @tools['edit_file'].call(
      'edits' => [
        { 'path' => file, 'old_text' => self.class.header(file, old), 'new_text' => self.class.header(file, version) },
        { 'path' => file, 'old_text' => self.class.body(file, old), 'new_text' => self.class.body(file, version) }
      ]
    )
    raise "edit refused: #{result}" unless result.is_a?(String)
  end
end
