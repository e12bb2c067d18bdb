# frozen_string_literal: true

require_relative 'docs/snippets'

# Every Ruby snippet of README.md and docs/ runs against the built gem, as
# Rust runs its doctests (spec/docs/snippets.rb says how), and every relative
# link of those documents resolves to a file the gem ships.
RSpec.describe 'the documentation' do
  blocks = DocsSnippets.blocks

  it 'has its snippets where this spec looks (README.md and docs/)' do
    expect(DocsSnippets.documents).to include('README.md', 'docs/getting-started.md', 'docs/guarantees.md')
    expect(blocks.count { |b| !b.excerpt && !b.same_as }).to be > 20
  end

  blocks.each do |block|
    if block.excerpt
      it "#{block.where} is an excerpt that says why" do
        expect(block.excerpt.length).to be >= 10
      end
    elsif block.same_as
      it "#{block.where} is #{block.same_as}, which bin/test-example-app runs" do
        expect(block.code).to eq(File.read(File.join(DocsSnippets::ROOT, block.same_as)))
      end
    else
      it "#{block.where} runs" do
        Prerequisites.missing(self, RubyLLMSource.skip_message) unless RubyLLMSource.available?('main')
        result = DocsSnippets.results.fetch(block.where)
        expect(result['ok']).to be(true), "#{block.where} raised:\n#{result['output']}"
      end
    end
  end

  DocsSnippets.documents.each do |doc|
    it "#{doc} links only to files the gem ships, and to headings they have" do
      links = DocsSnippets.relative_links(doc).map do |link|
        target, anchor = link.split('#', 2)
        target = target.empty? ? doc : File.expand_path(target, File.join('/', File.dirname(doc))).delete_prefix('/')
        [link, target, anchor]
      end
      expect(links.reject { |_, t, _| File.exist?(File.join(DocsSnippets::ROOT, t)) }.map(&:first)).to eq([])
      expect(links.reject { |_, t, _| DocsSnippets.shipped.include?(t) }.map(&:first)).to eq([])
      expect(links.select { |_, t, a| a && !DocsSnippets.anchors(t).include?(a) }.map(&:first)).to eq([])
    end
  end

  it 'sees a block that raises, an excerpt mark and a link out of the gem' do
    text = "x\n\n```ruby\nraise 'no'\n```\n\n<!-- excerpt: needs an OCR model -->\n```ruby\nOCR\n```\n"
    found = DocsSnippets.blocks_of('t.md', text)
    expect(found.map { |b| [b.line, b.excerpt] }).to eq([[4, nil], [9, 'needs an OCR model']])
  end
end
