# frozen_string_literal: true

require 'fileutils'
require 'open3'
require 'set'

# The search engine on a NativeDir against ripgrep (rg) on the same folder,
# with tricky content: CRLF and lone-CR lines, no final newline, invalid
# UTF-8, UTF-8 and UTF-16 BOMs, 10,000-character lines and a 600 KB one,
# files larger than the searcher's 64 KB buffer, binary files (a NUL in the
# first 64 KB), hidden files and folders, ignore files, links to a file
# inside and to a folder outside, a link loop, a dangling link, a FIFO,
# nested folders, and globs.
#
# rg runs from the store's folder with flags that make its file set ours:
# hidden files skipped (no --hidden), ignore files not read (--no-ignore),
# links not followed (the default), binary files skipped at the NUL (the
# default; rg 13's -I is --no-filename, not a binary switch), and '.' as the
# path so that it never reads stdin ('./' is stripped from its paths). The
# comparison is of (path, line number) pairs of uncapped searches, so the
# documented differences in how a line is shown (cut around the match past
# 500 characters, invalid UTF-8 replaced, CR dropped) do not count.
#
# Documented differences kept out of the comparison: formats without text of
# their own (.pdf, .docx, .png, .zip...) are named as skipped, not searched,
# so the tree has none; rg's -g globs win over its hidden-file rule (rg -g
# '*.md' searches docs/.secret.md) while the engine leaves hidden files out
# even when a glob names them, so rg's hidden paths are dropped when a glob
# is given; a glob starting with './' is anchored by the engine and matches
# nothing in rg, so it is not compared; and a file whose first NUL comes
# after the first 64 KB is skipped whole by the engine, where rg prints the
# matches it saw before the NUL (an example pins that one down).
class SearchDifferentialTree
  RG_FLAGS = %w[--no-config --no-ignore --line-number --no-heading --with-filename --color never].freeze
  NUL_FILES = %w[binary_start.dat binary.txt gen/d3/binary_8k.bin docs/deep/nul_in_line.md].freeze
  PATTERNS = ['needle', '\bneedle\b', 'needle|haystack|ÉCOLE', '[0-9]{3}-[a-z]+', 'école', 'ÉCOLE', '\bcole',
              'needle$', '^needle', '^$', 'x*', 'caf.', '\w+ \d+', 'x{100}', 'σίσυφοσ', 'kelvin', '\p{Greek}+',
              '(?i)NeEdLe', 'lorem ipsum dolor', "\u{FFFD}", '\S{600}', '(?-u:\xE9)', '(?-u:\xFF)+',
              '\x{E9}cole'].freeze
  GLOBS = ['*.md', '*.{md,txt}', 'docs/*.md', 'docs/**/*.md', 'docs/**', '**/docs/*.md', '**/*.rs', 'c*', '*.MD',
           '*.log', 'f0?[0-9].json', '[!a-m]*.txt', '/*.md', '/docs/*.md', '/docs/**'].freeze
  WORDS = %w[alpha beta gamma delta needle haystack école ÉCOLE lorem ipsum dolor 2025 σίσυφος caf 404-notfound].freeze

  def self.rg_version
    @rg_version ||= begin
      out, status = Open3.capture2e('rg', '--version')
      status.success? ? out.lines.first.to_s.strip : nil
    rescue SystemCallError
      nil
    end
  end

  def initialize(root)
    @root = root
  end

  def build(outside)
    FileUtils.mkdir_p([@root, outside])
    put_text_files
    put_awkward_files
    put_long_files
    put_binary_files
    put_hidden_files
    put_generated_files(Random.new(20_251_130))
    put_links_and_specials(outside)
  end

  def put(path, bytes)
    full = File.join(@root, path)
    FileUtils.mkdir_p(File.dirname(full))
    File.binwrite(full, bytes)
  end

  private

  def put_text_files
    put('plain.txt', "needle\nNeedle\nNEEDLE\nneedles\nhaystack needle haystack\n\nécole\nÉCOLE\nÉcole\n" \
                     "room 101-abc\n123-XYZ\nL'ÉCOLE d'été 2025\nΣΊΣΥΦΟΣ Σίσυφος σίσυφος\n" \
                     "KELVIN 5 \u212Aelvin kelvin\n")
    put('docs/a.md', "# Guide\n\nThe needle is here.\nno match\n  needle\n")
    put('docs/deep/b.md', "needle in b\n#{"filler line\n" * 30}needle again at 32\n")
    put('docs/deep/deeper/c.md', "ÉCOLE\nécole\n")
    put('docs/deep/deeper/c.txt', "c text needle\n")
    put('docs.md', "docs.md sorts before the docs folder's files\nneedle\n")
    put('README.MD', "upper-case extension: needle\n")
    put('src/lib.rs', "pub fn needle() -> u32 { 42 }\n#[test]\nfn needle_test() {}\n")
    put('src/main.rs', "fn main() {\n    println!(\"haystack\");\n}\n")
    put('src/tests/helper.rs', "// needle helper 7\n")
    put('src/a.b/inner.rs', "// folder name with a dot: needle\n")
    put('Makefile', "all:\n\techo needle\n")
    put('NOTES', "notes without an extension: needle 9\n")
    put('data.unknownext', "unknown extension needle\n")
    put('with space.txt', "a name with a space: needle\n")
    put('café.md', "caf\u00E9 needle\n")
    put('empty.txt', '')
    put('only_newlines.txt', "\n\n\n")
  end

  def put_awkward_files
    put('crlf.txt', "needle\r\nfoo 1\r\n\r\nneedle end\r\nÉCOLE\r\n")
    put('no_final_newline.md', "first line\nneedle on the last line")
    put('lone_cr.txt', "needle\rold mac\rneedle\r")
    put('invalid_utf8.txt', "caf\xE9 needle\n\xC3\x28 needle\nvalid école\n\xFF\xFF\n".b)
    put('utf8_bom.txt', "\xEF\xBB\xBFneedle first\ncaf\xE9 needle\n".b)
    put('utf16_bom.txt', "\xFF\xFE".b + "needle école\nσίσυφος 2\n".encode('UTF-16LE').b)
    put('utf16be_bom.txt', "\xFE\xFF".b + "ÉCOLE needle\n".encode('UTF-16BE').b)
  end

  def put_long_files
    put('long_lines.txt', "#{'x' * 10_000} needle\nneedle #{'y' * 10_000}\n#{'ÉCOLE ' * 1_700}\n" \
                          "#{'z' * 10_000}\nshort needle\n")
    put('huge_line.txt', "#{'q' * 300_000} needle #{'w' * 300_000}\nneedle\n")
    lines = Array.new(12_000) { |i| (i % 37).zero? ? "line #{i} needle lorem ipsum dolor\n" : "line #{i} filler\n" }
    put('big.log', lines.join) # about 200 KB: matches across the searcher's 64 KB buffers
  end

  def put_binary_files
    put('binary_start.dat', "\x7FELF\0\0\0needle\n".b)
    put('binary.txt', "needle\0\nneedle\n".b)
    put('gen/d3/binary_8k.bin', "#{"needle text\n" * 680}\0tail needle\n".b)
    put('docs/deep/nul_in_line.md', "# heading\nneedle \0 needle\n".b)
  end

  def put_hidden_files
    put('.hidden.txt', "needle\n")
    put('.hidden_dir/inner.txt', "needle\n")
    put('.hidden_dir/sub/visible_name.md', "needle\n")
    put('docs/.secret.md', "needle\n")
    put('docs/.cache/deep.md', "needle\n")
    put('.gitignore', "*\n")
    put('.ignore', "docs/\n")
    put('.rgignore', "*.md\n")
    put('src/.gitignore', "*.rs\n")
  end

  def put_generated_files(random)
    120.times do |i|
      ext = %w[.md .txt .rs .json .csv][i % 5]
      lines = Array.new(random.rand(1..40)) do
        Array.new(random.rand(0..8)) { WORDS.sample(random:) }.join(' ')
      end
      eol = i % 7 == 3 ? "\r\n" : "\n"
      put(format('gen/d%<d>d/sub%<s>d/f%<i>03d%<ext>s', d: i % 6, s: i % 3, i:, ext:), lines.join(eol) + eol)
    end
  end

  def put_links_and_specials(outside)
    File.write(File.join(outside, 'outside.md'), "needle outside\n")
    FileUtils.mkdir_p(File.join(outside, 'nested'))
    File.write(File.join(outside, 'nested/deep.txt'), "needle outside, deeper\n")
    File.symlink('plain.txt', File.join(@root, 'link_to_plain.txt'))
    File.symlink(outside, File.join(@root, 'link_outside'))
    File.symlink(File.join(outside, 'outside.md'), File.join(@root, 'docs/link_to_outside_file.md'))
    File.symlink('..', File.join(@root, 'docs/loop'))
    File.symlink('missing.txt', File.join(@root, 'dangling.txt'))
    File.mkfifo(File.join(@root, 'pipe.txt'))
  end
end

RSpec.describe RubyLLM::FileStore::Search, :native do
  before(:all) do
    unless SearchDifferentialTree.rg_version
      Prerequisites.missing(self, 'rg (ripgrep) is not installed: apt-get install -y ripgrep')
    end
    @tmp = Dir.mktmpdir('search-differential')
    @root = File.join(@tmp, 'store')
    @tree = SearchDifferentialTree.new(@root)
    @tree.build(File.join(@tmp, 'outside'))
    @store = RubyLLM::NativeDir.new(@root)
  end

  after(:all) { FileUtils.rm_rf(@tmp) if @tmp }

  attr_reader :store

  def ours(pattern, case_sensitive: false, **options)
    described_class.run(store, pattern, case_sensitive:, max_matches: nil, max_chars: nil, timeout: 60, **options)
  end

  def rg(pattern, case_sensitive: false, paths: ['.'], flags: [])
    args = ['rg', *SearchDifferentialTree::RG_FLAGS, case_sensitive ? '-s' : '-i', *flags, '-e', pattern, '--', *paths]
    out, err, status = Open3.capture3(*args, chdir: @root, stdin_data: '')
    raise "#{args.join(' ')} failed (#{status.exitstatus}): #{err}" unless [0, 1].include?(status.exitstatus)

    out.force_encoding(Encoding::UTF_8).scrub.lines(chomp: true).map { |line| line.delete_prefix('./') }
  end

  # Lines name a file line as path:N: (match) or path-N- (context); the
  # paths are known (hidden ones too), so - or : in a path cannot confuse the
  # parse, and a line naming a file this does not know fails the example.
  def line_regexp
    paths = Dir.glob('**/*', File::FNM_DOTMATCH, base: @root).sort_by { |path| -path.length }
    /\A(#{paths.map { |path| Regexp.escape(path) }.join('|')})([:-])(\d+)\2/
  end

  # [path, line, :match or :context] for each output line naming a file line.
  def hits(lines)
    lines = lines.lines(chomp: true) if lines.is_a?(String)
    regexp = line_regexp
    lines.filter_map do |line|
      found = regexp.match(line)
      next [found[1], Integer(found[3]), found[2] == ':' ? :match : :context] if found
      next if line == '--' || line.match?(/\A(No matches\.|Skipped \d+ |Could not search )/)

      raise "unexpected output line: #{line[0, 200].inspect}"
    end
  end

  def visible?(path) = path.split('/').none? { |part| part.start_with?('.') }

  def matches(lines) = hits(lines).select { |hit| hit[2] == :match }.map { |path, line, _| [path, line] }

  def files_only(pattern, **options)
    ours(pattern, files_only: true, **options).lines(chomp: true).grep_v(/\ASkipped /)
  end

  # With a glob, rg's hidden paths are dropped (see the top of the file).
  def expect_same(pattern, case_sensitive: false, rg_paths: ['.'], rg_flags: [], **options)
    ours = matches(ours(pattern, case_sensitive:, **options))
    theirs = rg_matches(pattern, case_sensitive:, paths: rg_paths, flags: rg_flags)
    label = "#{pattern.inspect} case_sensitive: #{case_sensitive} #{options} (rg #{rg_flags.join(' ')})"
    expect(ours.map(&:first)).to all(satisfy { |path| visible?(path) }), label
    expect_same_set(ours, theirs, label)
    expect(ours.uniq.size).to eq(ours.size), "#{label}: a line reported twice"
    ours
  end

  def rg_matches(pattern, flags:, **options)
    found = matches(rg(pattern, flags:, **options))
    flags.include?('-g') ? found.select { |path, _| visible?(path) } : found
  end

  def expect_same_set(ours, theirs, label)
    expect(ours.to_set).to eq(theirs.to_set), lambda {
      "#{label}\nonly ours: #{(ours.to_a - theirs.to_a).first(10)}\nonly rg: #{(theirs.to_a - ours.to_a).first(10)}"
    }
  end

  it 'runs against a real rg' do
    expect(SearchDifferentialTree.rg_version).to start_with('ripgrep')
  end

  [false, true].each do |case_sensitive|
    it "finds the same lines as rg #{case_sensitive ? '-s' : '-i'} for every pattern" do
      found = SearchDifferentialTree::PATTERNS.to_h { |pattern| [pattern, expect_same(pattern, case_sensitive:)] }
      expect(found['needle'].size).to be > 100 # the tree does exercise the engine
      expect(found['needle'].map(&:first))
        .to include('big.log', 'crlf.txt', 'utf16_bom.txt', 'utf8_bom.txt', 'invalid_utf8.txt', 'huge_line.txt')
      expect(found['x*'].size).to be > 1000
      expect(found.values_at('^$', 'kelvin', '\p{Greek}+', '\S{600}', '[0-9]{3}-[a-z]+')).to all(be_any)
    end
  end

  it 'lists the same files as rg -l, and neither reads hidden files, links, binaries or ignore rules' do
    %w[^ needle ÉCOLE].each do |pattern|
      ours = files_only(pattern)
      theirs = rg(pattern, flags: ['--files-with-matches'])
      expect(ours.sort).to eq(theirs.sort), pattern
      expect(ours).to eq(ours.sort_by(&:b)), "#{pattern}: files_only output in path order"
    end
    everything = files_only('^')
    expect(everything.grep(/hidden|secret|\.cache|link_|loop|outside|dangling|pipe|gitignore/)).to be_empty
    expect(everything).to include('src/lib.rs', 'docs/a.md', 'gen/d5/sub2/f119.csv', 'README.MD', 'NOTES')
  end

  it 'names the files with a NUL in their first 64 KB as binary, as rg skips them' do
    note = ours('needle').lines.grep(/\ASkipped .*binary/).join
    SearchDifferentialTree::NUL_FILES.each { |path| expect(note).to include(path) }
    expect(rg('needle').map { |line| line.split(':').first }).not_to include(*SearchDifferentialTree::NUL_FILES)
  end

  it 'outputs matches in path order, then line order' do
    found = matches(ours('needle|école'))
    expect(found).to eq(found.sort_by { |path, line| [path.b, line] })
  end

  it 'keeps the first matches of the uncapped search when capped' do
    uncapped = ours('needle').lines.grep(/:\d+:/)
    capped = described_class.run(store, 'needle').lines.grep(/:\d+:/)
    expect(capped.size).to eq(100)
    expect(capped).to eq(uncapped.first(100))
  end

  SearchDifferentialTree::GLOBS.each do |glob|
    it "narrows by glob #{glob} as rg -g #{glob}" do
      [false, true].each do |case_sensitive|
        ['needle', 'école', '^'].each do |pattern|
          expect_same(pattern, case_sensitive:, glob:, rg_flags: ['-g', glob])
        end
      end
      theirs = rg('^', flags: ['-l', '-g', glob]).select { |path| visible?(path) }
      expect(files_only('^', glob:).sort).to eq(theirs.sort)
    end
  end

  it 'narrows by folder as rg given that folder' do
    %w[docs docs/deep src/tests gen/d3].each do |folder|
      [false, true].each do |case_sensitive|
        found = expect_same('needle|ÉCOLE|^', case_sensitive:, path: folder, rg_paths: [folder])
        expect(found.map(&:first)).to all(start_with("#{folder}/"))
      end
      expect_same('needle', path: folder, glob: '*.md', rg_paths: [folder], rg_flags: ['-g', '*.md'])
    end
  end

  it 'shows the same context lines as rg -C' do
    [1, 3].each do |context|
      %w[needle ÉCOLE].each do |pattern|
        ours = hits(ours(pattern, context:))
        theirs = hits(rg(pattern, flags: ['-C', context.to_s]))
        expect_same_set(ours, theirs, "#{pattern} -C #{context}")
      end
    end
  end

  it 'finds the same lines in a Memory store holding the same files' do
    memory = RubyLLM::FileStore::Memory.new
    (files_only('^') + SearchDifferentialTree::NUL_FILES + ['empty.txt']).each do |path|
      memory.write(path, File.binread(File.join(@root, path)))
    end
    ['needle', 'ÉCOLE', '^$', '^needle', "\u{FFFD}", 'x{100}'].each do |pattern|
      on_disk = matches(ours(pattern))
      in_memory = matches(described_class.run(memory, pattern, max_matches: nil, max_chars: nil))
      expect(in_memory).to eq(on_disk), pattern
    end
  end

  it 'skips a file whose first NUL is past the first 64 KB, where rg shows the lines before it' do
    @tree.put('late/late_nul.txt', "#{"needle\n" * 20_000}\0\n")
    output = ours('needle', path: 'late')
    expect(output).to start_with("No matches.\n")
    expect(output.lines.grep(/\ASkipped .*binary/).join).to include('late/late_nul.txt')
    expect(rg('needle', paths: ['late']).size).to be_between(1, 19_999)
  ensure
    FileUtils.rm_rf(File.join(@root, 'late'))
  end

  context 'where rg and the engine disagree' do
    after { FileUtils.rm_rf(Dir.glob(File.join(@root.b, 'odd*'.b))) }

    it 'names the files and folders whose names are not UTF-8, which rg searches' do
      @tree.put("odd\xFF.txt".b, "needle in a file named in Latin-1\n")
      @tree.put("odd_dir\xFE/inside.txt".b, "needle in a folder named in Latin-1\n")
      expect(rg('needle', paths: ['.']).grep(/\Aodd/).size).to eq(2)
      output = ours('needle')
      expect(output.include?('odd')).to be(true), "no word of them in: #{output.lines.grep(/odd|Skipped/).join}"
    end
  end
end
