# frozen_string_literal: true

require 'json'
require 'open3'
require 'rbconfig'

# The fenced ```ruby blocks of README.md and docs/*.md, and what running them
# gives. A block runs unless the line just before its fence (blank lines
# aside) is an excerpt mark with its reason:
#
#   <!-- excerpt: needs a Rails app (bin/test-example-app runs this code) -->
#
# All blocks run in one child Ruby that loads the gem (and ruby_llm main, when
# a copy is there) once, then forks for each block: each gets a temporary
# folder of its own as its working folder and the scripted OpenAI-compatible
# server as its model, and is evaluated with its file and line, so an error
# names the line of the document.
module DocsSnippets
  ROOT = File.expand_path('../..', __dir__)
  EXCERPT = /\A<!--\s*excerpt:\s*(?<reason>.*?)\s*-->\z/
  # A block that must be the text of a file of the example app, which
  # bin/test-example-app runs: <!-- same as examples/rails_app/app/jobs/review_job.rb -->
  SAME_AS = /\A<!--\s*same as\s+(?<path>\S+)\s*-->\z/

  Block = Struct.new(:file, :line, :code, :excerpt, :same_as, keyword_init: true) do
    def where = "#{file}:#{line}"
  end

  module_function

  # The documents, relative to the repository.
  def documents = ['README.md', *Dir.chdir(ROOT) { Dir['docs/*.md'] }]

  def blocks = @blocks ||= documents.flat_map { |doc| blocks_of(doc, File.read(File.join(ROOT, doc))) }

  # The ruby blocks of +text+ (the document +doc+), with the line of each
  # block's first line of code.
  def blocks_of(doc, text)
    lines = text.lines(chomp: true)
    lines.each_index.select { |i| lines[i].strip == '```ruby' }.map do |fence|
      finish = (fence + 1...lines.size).find { |i| lines[i].strip.start_with?('```') } || lines.size
      mark = mark_before(lines, fence)
      Block.new(file: doc, line: fence + 2, code: code_of(lines, fence, finish),
                excerpt: mark[EXCERPT, :reason], same_as: mark[SAME_AS, :path])
    end
  end

  # The lines between the fences, without the indentation of the opening
  # one (a block inside a list item is indented as the item's text).
  def code_of(lines, fence, finish)
    indent = lines[fence][/\A */].size
    "#{lines[fence + 1...finish].map { |l| l.sub(/\A {0,#{indent}}/, '') }.join("\n")}\n"
  end

  # The line before +index+, blank lines aside, stripped.
  def mark_before(lines, index) = lines[0...index].reverse.find { |l| !l.strip.empty? }.to_s.strip

  # What each block that runs gave, by its place: { 'README.md:12' => { 'ok' =>, 'output' => } }.
  def results
    @results ||= begin
      runnable = blocks.reject { |b| b.excerpt || b.same_as }
      input = JSON.generate(runnable.map { |b| b.to_h.slice(:file, :line, :code).merge(where: b.where) })
      paths = RubyLLMSource.folders('main')
      out, err, status = Open3.capture3(RbConfig.ruby, *paths.flat_map { |f| ['-I', f] }, '-I', File.join(ROOT, 'lib'),
                                        File.join(__dir__, 'snippet_runner.rb'), stdin_data: input)
      raise "the snippet runner failed (#{status}):\n#{err}" unless status.success?

      JSON.parse(out)
    end
  end

  # The relative links ([text](target)) of +doc+, as written (anchors kept),
  # outside code blocks and code spans.
  def relative_links(doc)
    prose = File.read(File.join(ROOT, doc)).gsub(/^ *```.*?^ *```/m, '').gsub(/`[^`\n]*`/, '')
    prose.scan(/\]\(([^)\s]+)\)/).flatten.grep_v(%r{\A(?:[a-z]+:|//)}i).uniq
  end

  # The anchors GitHub gives the headings of +doc+ (a path in the repository).
  def anchors(doc)
    File.read(File.join(ROOT, doc)).scan(/^#+ (.+)$/).flatten.map do |heading|
      heading.downcase.delete('`').gsub(/[^\p{Word}\- ]/, '').tr(' ', '-')
    end
  end

  # The files the gem ships, relative to the repository (the gemspec's list).
  def shipped
    @shipped ||= Dir.chdir(ROOT) { Gem::Specification.load('ruby_llm-file_stores-native.gemspec').files }
  end
end
